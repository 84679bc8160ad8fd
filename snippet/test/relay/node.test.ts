// The relay served by toNodeListener over real HTTP: what a Node server meets before the handler
// can build a Request — a malformed Host, a body over the limit — answered 400/413, never 500,
// and counted toward the rate limit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayHandler, toNodeListener } from '../../src/relay/index.js';
import { rawPost as post } from './raw-post.ts';
import { shopConfig } from './shop-relay.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function serve(rateLimit = 2): Promise<number> {
  const handler = createRelayHandler({
    ...shopConfig,
    rateLimit,
    log: () => {},
  });
  server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
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
