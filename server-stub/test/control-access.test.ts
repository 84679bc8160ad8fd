// /__stub/* answers connections from this machine only, unless --open-control; the peer is the
// connection's address (light-my-request's remoteAddress), never a forwarded header.
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopback } from '../src/control-access.js';
import { startTestStub } from './helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

const ask = async (
  openControl: boolean,
  remoteAddress: string,
  url: string,
  headers: Record<string, string> = {},
) => {
  const running = await startTestStub({ openControl, trustProxy: true });
  close = running.close;
  const answer = await running.stub.app.inject({ method: 'GET', url, remoteAddress, headers });
  return { status: answer.statusCode, code: answer.json().i18n_code };
};

describe('the control surface /__stub/*', () => {
  it.each(['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1'])(
    'answers a peer at %s',
    async (peer) => {
      expect((await ask(false, peer, '/__stub/emails')).status).toBe(200);
    },
  );

  it.each(['192.0.2.7', '10.0.0.1', '::ffff:192.0.2.7', '2001:db8::1'])(
    'refuses a peer at %s, even one claiming loopback in X-Forwarded-For',
    async (peer) => {
      expect(await ask(false, peer, '/__stub/emails', { 'x-forwarded-for': '127.0.0.1' })).toEqual({
        status: 403,
        code: 'control_not_allowed',
      });
    },
  );

  it('answers any peer with --open-control', async () => {
    expect((await ask(true, '192.0.2.7', '/__stub/emails')).status).toBe(200);
  });

  it('leaves the API open to any peer', async () => {
    expect((await ask(false, '192.0.2.7', '/v1/tracker/json/example.com')).status).toBe(200);
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.9', true],
    ['0.0.0.0', false],
    ['128.0.0.1', false],
    ['::', false],
    ['localhost', false],
    [undefined, false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});
