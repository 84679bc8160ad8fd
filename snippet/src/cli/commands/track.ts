// `sitebeam track WEBSITE [--pixel]`: records a visit as a browser would and shows what the
// instance saw. The tracker takes no token, so none is sent.
import {
  connectOrigin,
  limits,
  paths,
  readCappedBody,
  SitebeamApiError,
  type TrackerRecord,
} from '../../client/index.js';
import { usageError } from '../exit-codes.js';
import { printJson, printLine, type Session } from '../session.js';

export interface TrackOptions {
  pixel?: boolean;
  userAgent?: string;
  referrer?: string;
}

export async function track(session: Session, website: string, options: TrackOptions) {
  const characters = [...website].length;
  if (characters === 0 || characters > limits.websiteChars) {
    throw usageError(`WEBSITE must have 1 to ${limits.websiteChars} characters`);
  }
  const headers: Record<string, string> = {};
  if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
  if (options.referrer !== undefined) headers.referer = options.referrer;
  if (options.pixel) {
    await trackWithPixel(session, website, headers);
    return;
  }
  const { client } = await session.connect(false);
  session.answer(formatRecord(await client.track(website, headers)));
}

/** The pixel answers an image, not the record: say what came back instead. */
async function trackWithPixel(session: Session, website: string, headers: Record<string, string>) {
  const { instance } = await session.connect(false);
  const url = connectOrigin(instance.url) + paths.trackerImg(website);
  let response: Response;
  try {
    response = await fetch(url, {
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(session.options.timeout * 1000),
    });
  } catch (cause) {
    throw new SitebeamApiError({
      status: 0,
      code: 'network_error',
      message: `${url} could not be reached`,
      cause,
    });
  }
  const body = await readCappedBody(response, limits.answerBytes);
  if (body === undefined) {
    throw new SitebeamApiError({
      status: response.status,
      code: 'invalid_response',
      message: `GET ${paths.trackerImg(website)} answered more than ${limits.answerBytes} bytes, which were not read`,
    });
  }
  const type = response.headers.get('content-type') ?? 'no content type';
  if (response.status >= 300 && response.status < 400) {
    throw new SitebeamApiError({
      status: response.status,
      code: 'redirect_refused',
      message: `GET ${paths.trackerImg(website)} answered ${response.status}; redirects are not followed`,
    });
  }
  if (!response.ok) {
    throw SitebeamApiError.fromErrorBody(
      response.status,
      parsedErrorBody(body),
      response.headers.get('retry-after'),
    );
  }
  const summary = { status: response.status, content_type: type, bytes: body.length };
  if (session.json) printJson(JSON.stringify(summary));
  else {
    printLine(
      `GET ${url} → ${response.status} ${type}, ${body.length} bytes.\n` +
        `The pixel records the visit but does not return the record: \`sitebeam track ${website}\` shows it.`,
    );
  }
}

function describeDevice({ device, details }: TrackerRecord): string {
  const model = [details.brand, details.type].filter((part) => part !== 'unknown').join(' ');
  return model ? `${device} (${model})` : device;
}

function parsedErrorBody(body: Uint8Array): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(body));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function formatRecord(record: TrackerRecord): string {
  const { infos } = record;
  const place = [infos.city, infos.region, infos.country]
    .filter((part) => part && part !== 'unknown')
    .join(', ');
  const network = [infos.asn, infos.org].filter((part) => part && part !== 'unknown').join(' ');
  const location =
    infos.status === 'ok'
      ? [place || 'unknown place', infos.country_iso, network].filter(Boolean).join(' · ')
      : `not found (${infos.reason ?? infos.status_code ?? infos.status})`;
  const rows: Array<[string, string | undefined]> = [
    ['website', record.website],
    ['time', `${record.time} UTC`],
    ['address', infos.version ? `${record.host} (${infos.version})` : record.host],
    ['browser', `${record.browser} on ${record.os}`],
    ['device', describeDevice(record)],
    ['location', location],
    ['referrer', record.referrer],
    ['user agent', record.user_agent],
    ['record id', record.cid],
  ];
  // The service leaves out what it could not find (the cid, a failed lookup's fields).
  return rows
    .filter(([, value]) => value !== undefined)
    .map(([label, value]) => `${label.padEnd(10)}  ${value}`)
    .join('\n');
}
