// The run-time check of each answer shape the contract gives, and the client refusing what fails it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerProblem,
  createClient,
  geoInfoFields,
  limits,
  type RawAnswer,
  SitebeamApiError,
} from '../../src/client/index.js';

const record = {
  status: 'ok',
  type: 'tracker',
  time: '2026-01-01T00:00:00.000000',
  host: '127.0.0.1',
  user_agent: 'curl',
  os: 'linux',
  device: 'computer',
  browser: 'curl',
  details: { brand: 'unknown', type: 'unknown' },
  referrer: 'None',
  website: 'example.com',
  infos: Object.fromEntries(geoInfoFields.map((field) => [field, 'unknown'])),
  level: 'INFO',
  cid: 'c1',
};
Object.assign(record.infos, { status: 'ko', status_code: 404 });

describe('answerProblem', () => {
  it('passes the answers of the contract, unknown fields included', () => {
    expect(answerProblem('email', { status: 'ok', id: 'x', extra: [1] })).toBeUndefined();
    expect(answerProblem('models', { status: 'ok', models: [] })).toBeUndefined();
    expect(answerProblem('prompt', { status: 'ok', response: ['a'], score: 0.5 })).toBeUndefined();
    expect(answerProblem('load', { status: 'ok', model: 'm', state: 'ready' })).toBeUndefined();
    expect(answerProblem('tracker', record)).toBeUndefined();
  });

  it.each([
    [
      'prompt',
      { status: 'ok', response: ['a'], score: '<img>' },
      'score is a string, not a number or null',
    ],
    [
      'prompt',
      { status: 'ok', response: 'a string', score: 1 },
      'response is a string, not a list',
    ],
    [
      'prompt',
      { status: 'ok', response: [{}, 7], score: 1 },
      'response[0] is an object, not a string',
    ],
    ['models', { status: 'ok' }, 'models is missing'],
    [
      'prompt',
      { status: 'ok', response: ['a'], score: true },
      'score is a boolean, not a number or null',
    ],
    ['models', { status: 'ok', models: ['a', null] }, 'models[1] is null, not a string'],
    ['load', { status: 'ok', http_status: '202' }, 'http_status is a string, not a number'],
    ['email', { status: 'done', id: 'x' }, 'status is "done", not "ok"'],
    ['email', [], 'the answer is a list, not an object'],
    [
      'tracker',
      { ...record, infos: { ...record.infos, city: 7 } },
      'infos.city is a number, not a string',
    ],
    ['tracker', { ...record, details: 'x' }, 'details is a string, not an object'],
  ] as const)('%s %j: %s', (name, answer, expected) => {
    expect(answerProblem(name, answer)).toBe(expected);
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function instanceAnswering(status: number, body: string | Buffer): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the client checks every 2xx answer', () => {
  it('refuses a wrong shape as invalid_response naming the field', async () => {
    const baseUrl = await instanceAnswering(200, '{"status":"ok","response":["a"],"score":"9"}');
    const error = await createClient({ baseUrl, token: 't' })
      .prompt({ model: 'mock', message: 'hi' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SitebeamApiError);
    expect(error).toMatchObject({ status: 200, code: 'invalid_response' });
    expect((error as Error).message).toContain('score is a string, not a number');
  });

  it('refuses an answer over the limit without keeping it, and says so', async () => {
    const big = `{"status":"ok","models":["${'m'.repeat(limits.answerBytes)}"]}`;
    const baseUrl = await instanceAnswering(200, big);
    const seen: Array<RawAnswer | undefined> = [];
    const error = await createClient({ baseUrl, token: 't', onAnswer: (a) => seen.push(a) })
      .listModels()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_response' });
    expect((error as Error).message).toContain(`more than ${limits.answerBytes} bytes`);
    expect(seen.at(-1)).toMatchObject({ status: 200, text: '' });
  });

  it('takes an answer just under the limit', async () => {
    const name = 'm'.repeat(limits.answerBytes - '{"status":"ok","models":[""]}'.length);
    const baseUrl = await instanceAnswering(200, `{"status":"ok","models":["${name}"]}`);
    const { models } = await createClient({ baseUrl, token: 't' }).listModels();
    expect(models[0]?.length).toBe(name.length);
  });
});
