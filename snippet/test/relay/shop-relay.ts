// A contact relay for shop.example whose API always sends, and the native (no JavaScript) posts a
// visitor's browser makes to it: the fixture of the tests of the relay's own pages.
import { vi } from 'vitest';
import { createRelayHandler, type RelayConfig } from '../../src/relay/index.js';

export const site = 'https://shop.example';

export function shopRelay(config: Partial<RelayConfig> = {}) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
    Response.json({ status: 'ok', id: 'mail-1' }),
  );
  const handler = createRelayHandler({
    apiUrl: 'https://api.example',
    apiToken: 'token',
    contactTo: 'owner@shop.example',
    contactFrom: 'forms@shop.example',
    allowedOrigins: [site],
    publicUrl: 'https://relay.example',
    siteName: 'Shop',
    minFillMs: 0,
    fetch: fetch as unknown as typeof globalThis.fetch,
    log: () => {},
    ...config,
  });
  return { handler, fetch };
}

/** A form-encoded post from a page on `from` (its Origin), `referer` being the page. */
export const nativePost = (
  url: string,
  body: string,
  from = site,
  referer = `${from}/contact-us`,
) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: from, referer },
    body,
  });
