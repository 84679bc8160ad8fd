// Builds the tracker record of a visit (contract §5), keeps it and writes it to the log stream.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { NO_REFERRER, type TrackerRecord, UNKNOWN } from 'sitebeam/client';
import type { CapturedLog } from '../store/captured.js';
import { clientAddress } from './client-address.js';
import type { GeoLocator } from './geo.js';
import { describeUserAgent, type UserAgentFacts } from './user-agent.js';

const USER_AGENT_CACHE_SIZE = 2000;

/** UTC, ISO 8601 without offset, six fractional digits: 2024-12-19T20:06:02.556973 */
export function recordTime(epochMicros: number): string {
  const iso = new Date(Math.floor(epochMicros / 1000)).toISOString();
  const micros = String(Math.floor(epochMicros % 1_000_000)).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}`;
}

export class VisitRecorder {
  private readonly userAgents = new Map<string, UserAgentFacts>();

  constructor(
    private readonly geo: GeoLocator,
    private readonly visits: CapturedLog<TrackerRecord>,
    private readonly writeVisitLine: (line: string) => void,
    private readonly trustProxy: boolean,
  ) {}

  /** The record, and its JSON text (one serialization serves the log line and the answer). */
  async record(
    request: FastifyRequest,
    website: string,
  ): Promise<{ record: TrackerRecord; json: string }> {
    const epochMicros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    const host = clientAddress(request, this.trustProxy);
    const userAgentHeader = request.headers['user-agent'];
    const referer = request.headers.referer;
    const facts = this.describe(userAgentHeader ?? '');
    const record: TrackerRecord = {
      status: 'ok',
      type: 'tracker',
      time: recordTime(epochMicros),
      host,
      user_agent: userAgentHeader || UNKNOWN,
      os: facts.os,
      device: facts.device,
      browser: facts.browser,
      details: { ...facts.details },
      referrer: referer || NO_REFERRER,
      website,
      infos: await this.geo.locate(host, new Date(epochMicros / 1000)),
      level: 'INFO',
      cid: randomUUID(),
    };
    const json = JSON.stringify(record);
    this.visits.add(record);
    this.writeVisitLine(`${json}\n`);
    return { record, json };
  }

  private describe(userAgent: string): UserAgentFacts {
    const cached = this.userAgents.get(userAgent);
    if (cached) return cached;
    const facts = describeUserAgent(userAgent);
    if (this.userAgents.size >= USER_AGENT_CACHE_SIZE) this.userAgents.clear();
    this.userAgents.set(userAgent, facts);
    return facts;
  }
}
