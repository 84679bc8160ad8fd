// The `sitebeam-relay` command bounds its sockets: a body that stops halfway is answered 408 and
// its connection closed once the request timeout passes; connections past the cap are closed.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketLimitsFromEnv } from '../../src/relay/socket-limits.js';
import { type RunningRelay, runRelayOnce, startRelay } from './start-relay.ts';

const env = {
  // Never asked: nothing here reaches the instance.
  SITEBEAM_API_URL: 'http://127.0.0.1:9',
  SITEBEAM_API_TOKEN: 'token',
  SITEBEAM_ALLOWED_ORIGINS: 'https://shop.example',
  SITEBEAM_CONTACT_TO: 'dev@example.com',
  SITEBEAM_CONTACT_FROM: 'forms@example.com',
  SITEBEAM_SITE_NAME: 'Example Shop',
};

let relay: RunningRelay;
beforeAll(async () => {
  relay = await startRelay({
    ...env,
    SITEBEAM_HEADERS_TIMEOUT_S: '1',
    SITEBEAM_REQUEST_TIMEOUT_S: '1',
    SITEBEAM_MAX_CONNECTIONS: '2',
  });
}, 20_000);
afterAll(() => relay?.stop());

const open = (): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(relay.url).port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

/** Everything the relay sends on `socket` until it closes it. */
const untilClosed = (socket: Socket): Promise<string> =>
  new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.once('close', () => resolve(received));
  });

describe('the relay command bounds its sockets', () => {
  it('answers a body that stops halfway 408 and closes its connection', async () => {
    const socket = await open();
    const closed = untilClosed(socket);
    socket.write(
      'POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('closes connections past the cap, and serves again once one is gone', async () => {
    const held = [await open(), await open()];
    const third = await open();
    expect(await untilClosed(third)).toBe('');
    for (const socket of held) socket.destroy();
    const listing = await fetch(`${relay.url}/contact`, {
      headers: { origin: 'https://shop.example' },
    });
    expect(listing.status).toBe(200);
  }, 15_000);

  it('refuses a malformed setting by its name', async () => {
    const { code, output } = await runRelayOnce({ ...env, SITEBEAM_MAX_CONNECTIONS: 'many' });
    expect(code).toBe(1);
    expect(output).toContain('SITEBEAM_MAX_CONNECTIONS must be a whole number');
  });
});

describe('socketLimitsFromEnv', () => {
  it('defaults to 10 s for headers, 30 s for the request and 512 connections', () => {
    expect(socketLimitsFromEnv({})).toEqual({
      headersTimeoutS: 10,
      requestTimeoutS: 30,
      maxConnections: 512,
    });
  });

  it.each([
    [{ SITEBEAM_REQUEST_TIMEOUT_S: '0' }, 'SITEBEAM_REQUEST_TIMEOUT_S must be at least 1'],
    [
      { SITEBEAM_HEADERS_TIMEOUT_S: '20', SITEBEAM_REQUEST_TIMEOUT_S: '5' },
      'SITEBEAM_HEADERS_TIMEOUT_S must not exceed SITEBEAM_REQUEST_TIMEOUT_S (5)',
    ],
  ])('refuses %o', (values, message) => {
    expect(() => socketLimitsFromEnv(values)).toThrow(message);
  });
});
