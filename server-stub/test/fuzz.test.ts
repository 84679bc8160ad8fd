// Random shapes, wrong types, huge strings, bad UTF-8 and truncated bodies at every endpoint:
// never a 5xx, never a crash, always the contract's error JSON. Seeded, so a failure replays.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { UUID_V4, useTestStub } from './helpers.js';

const stub = useTestStub();

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const FIELDS = [
  'to',
  'from',
  'bcc',
  'cc',
  'replyto',
  'subject',
  'content',
  'attachment',
  'mime_type',
  'file_name',
  'b64',
  'model',
  'message',
  'settings',
  'top_k',
  'temperature',
  'do_sample',
  '__proto__',
  'constructor',
];

function randomValue(next: () => number, depth = 0): unknown {
  const kind = Math.floor(next() * (depth > 2 ? 7 : 9));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return next() > 0.5;
    case 2:
      return Math.floor(next() * 2 ** 40) * (next() > 0.5 ? -1 : 1);
    case 3:
      return next() * 1e308;
    case 4:
      return 'a@example.com';
    case 5:
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 0xffff)),
      );
    case 6:
      return 'x'.repeat(Math.floor(next() * 70_000));
    case 7:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 6) }, () => [
          FIELDS[Math.floor(next() * FIELDS.length)],
          randomValue(next, depth + 1),
        ]),
      );
  }
}

const ENDPOINTS: Array<[string, string]> = [
  ['POST', '/v1/email'],
  ['POST', '/v1/ai/prompt'],
  ['GET', '/v1/ai/models'],
  ['GET', '/v1/ai/model/mock'],
  ['GET', '/v1/tracker/json/site'],
  ['GET', '/v1/tracker/img/site'],
  ['POST', '/__stub/accounts'],
  ['PUT', '/__stub/faults'],
];

/** A raw request: bytes as given, the declared length possibly a lie. */
function raw(
  method: string,
  path: string,
  body: Buffer,
  headers: Record<string, string | number>,
  giveUpMs = 10_000,
) {
  return new Promise<{ status: number; body: string; contentType: string }>((resolve, reject) => {
    const req = httpRequest(`${stub.url}${path}`, { method, headers, timeout: giveUpMs }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          contentType: String(res.headers['content-type']),
        }),
      );
    });
    req.on('timeout', () => req.destroy(new Error('gave up')));
    req.on('error', reject);
    req.end(body);
  });
}

function expectContractAnswer(
  answer: { status: number; body: string; contentType: string },
  what: string,
) {
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.contentType, what).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body);
    if (answer.status === 422) {
      // FastAPI's validation answer, as the service sends it.
      expect(body.detail?.[0], what).toMatchObject({
        loc: expect.any(Array),
        msg: expect.any(String),
      });
      return;
    }
    expect(body, what).toMatchObject({
      status: 'ko',
      error: expect.any(String),
      i18n_code: expect.any(String),
    });
    expect(body.cid, what).toMatch(UUID_V4);
  }
}

describe('fuzzing every endpoint', () => {
  it('random JSON shapes and types', async () => {
    const next = random(20261122);
    for (let round = 0; round < 400; round += 1) {
      const [method, path] = ENDPOINTS[round % ENDPOINTS.length] as [string, string];
      const body = Buffer.from(JSON.stringify(randomValue(next)));
      const answer = await raw(method, path, method === 'GET' ? Buffer.alloc(0) : body, {
        'content-type': 'application/json',
        'x-auth-token': next() > 0.2 ? 'dev-token' : 'wrong',
        ...(method === 'GET' ? {} : { 'content-length': body.length }),
      });
      expectContractAnswer(answer, `${method} ${path} round ${round}: ${body.subarray(0, 200)}`);
    }
  });

  it('bad UTF-8, truncated bodies, odd content types and lying lengths', async () => {
    const bodies = [
      Buffer.from([0x7b, 0x22, 0x74, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      Buffer.from('{"to":"a@example.com","subject":"trunc'),
      Buffer.from('\u0000\u0001\u0002'),
      Buffer.from(''),
      Buffer.from('{"to":"a@example.com","subject":"x","content":"\\ud800"}'),
      Buffer.from(
        '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      ),
    ];
    const types = [
      'application/json',
      'application/json; charset=latin1',
      'text/plain',
      'multipart/form-data; boundary=x',
      '',
      'application/x-www-form-urlencoded',
    ];
    for (const [method, path] of ENDPOINTS.filter(([m]) => m !== 'GET')) {
      for (const body of bodies) {
        for (const type of types) {
          const headers: Record<string, string | number> = {
            'x-auth-token': 'dev-token',
            'content-length': body.length,
          };
          if (type) headers['content-type'] = type;
          expectContractAnswer(
            await raw(method, path, body, headers),
            `${method} ${path} ${type} ${body.toString('hex').slice(0, 40)}`,
          );
        }
      }
      // The body is shorter than announced: the client gives up, the server must not crash.
      const gaveUp = await raw(
        method,
        path,
        Buffer.from('{"to":'),
        { 'content-type': 'application/json', 'content-length': 500, 'x-auth-token': 'dev-token' },
        200,
      ).catch((error: Error) => error.message);
      expect(gaveUp).toBe('gave up');
    }
    expect((await stub.request('/v1/tracker/json/still-alive')).status).toBe(200);
  });

  it('odd paths and headers', async () => {
    const paths = [
      '/v1/tracker/json/%',
      '/v1/tracker/json/%00',
      '/v1/tracker/json/..%2F..%2Fetc',
      '/v1/email?x=%ZZ',
      `/v1/tracker/img/${'%F0%9F%98%80'.repeat(300)}`,
      '/v1/ai/model/%E0%A4%A',
      '//v1//email',
    ];
    for (const path of paths) {
      const answer = await raw('GET', path, Buffer.alloc(0), {
        'x-auth-token': 'dev-token',
        'x-forwarded-for': 'garbage',
        'user-agent': '\u00ff'.repeat(5000),
      });
      expectContractAnswer(answer, path);
    }
  });
});
