// The relay served by toNodeListener over real HTTP: what a Node server meets before the handler
// can build a Request — a malformed Host, a body over the limit — answered 400/413, never 500,
// and counted toward the rate limit.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayHandler, toNodeListener } from '../../src/relay/index.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function serve(rateLimit = 2): Promise<number> {
  const handler = createRelayHandler({
    apiUrl: 'https://api.example',
    apiToken: 'token',
    contactTo: 'owner@shop.example',
    contactFrom: 'forms@shop.example',
    allowedOrigins: ['https://shop.example'],
    siteName: 'Shop',
    rateLimit,
    log: () => {},
  });
  server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function post(
  port: number,
  options: { host?: string; body?: Buffer; chunked?: boolean },
): Promise<{ status: number; body: string; connection: string | undefined }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.host) headers.host = options.host;
  if (options.body && !options.chunked) headers['content-length'] = String(options.body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { port, host: '127.0.0.1', path: '/contact', method: 'POST', headers, agent: false },
      (incoming) => {
        let body = '';
        incoming.on('data', (chunk) => {
          body += chunk;
        });
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            body,
            connection: incoming.headers.connection,
          }),
        );
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    const body = options.body ?? Buffer.from('{}');
    for (let offset = 0; offset < body.length; offset += 16_384) {
      outgoing.write(body.subarray(offset, offset + 16_384));
    }
    outgoing.end();
  });
}

describe('toNodeListener', () => {
  it('answers 400 invalid_request to a malformed Host, and counts it', async () => {
    const port = await serve();
    const first = await post(port, { host: 'exa mple.com' });
    expect(first.status).toBe(400);
    expect(JSON.parse(first.body).i18n_code).toBe('invalid_request');
    expect((await post(port, { host: '[::1' })).status).toBe(400);
    expect((await post(port, {})).status).toBe(429);
  });

  for (const chunked of [false, true]) {
    it(`answers 413 to a ${chunked ? 'chunked ' : ''}body of 8 MiB, closes, and counts it`, async () => {
      const port = await serve();
      const big = Buffer.alloc(8 * 1024 * 1024, 'a');
      const answer = await post(port, { body: big, chunked });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).i18n_code).toBe('payload_too_large');
      expect(answer.connection).toBe('close');
      expect((await post(port, { body: big, chunked })).status).toBe(413);
      expect((await post(port, {})).status).toBe(429);
    });
  }
});
