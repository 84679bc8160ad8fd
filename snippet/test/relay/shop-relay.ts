// A contact relay for shop.example whose API always sends, and the native (no JavaScript) posts a
// visitor's browser makes to it: the fixture of the tests of the relay's own pages.
import { vi } from 'vitest';
import { createRelayHandler, type RelayConfig } from '../../src/relay/index.js';
import { createTicketIssuer, ticketKey } from '../../src/relay/ticket.js';

export const site = 'https://shop.example';

/** What every test relay of shop.example is configured with: its API, its owner, its page. */
export const shopConfig = {
  apiUrl: 'https://api.example',
  apiToken: 'secret-token-123',
  allowedOrigins: [site],
  siteName: 'Shop',
  contactTo: 'owner@shop.example',
  contactFrom: 'forms@shop.example',
} satisfies Partial<RelayConfig>;

/** The shop with fill-time tickets and no minimum fill time: a test's posts with `ticket` pass at once. */
export const ticketedShopConfig = {
  ...shopConfig,
  siteName: 'Example Shop',
  minFillMs: 0,
  ticketSecret: 'test-secret',
} satisfies Partial<RelayConfig>;

export const ticket = await createTicketIssuer(
  ticketKey(ticketedShopConfig.ticketSecret, ''),
  0,
).issue(Date.now());

/** What a visitor types into the shop's form, with the ticket of a form filled long enough. */
export const visitor = {
  name: 'Ada',
  email: 'ada@example.com',
  subject: 'Hi',
  message: 'A private question',
  ticket,
};

export function shopRelay(config: Partial<RelayConfig> = {}) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
    Response.json({ status: 'ok', id: 'mail-1' }),
  );
  const handler = createRelayHandler({
    ...shopConfig,
    publicUrl: 'https://relay.example',
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
