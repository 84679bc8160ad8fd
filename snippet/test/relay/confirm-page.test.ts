// The relay's no-JavaScript path for the fill-time ticket: a native post without a valid ticket
// gets a confirmation page holding the visitor's text and a fresh ticket; sending it goes through.
import { describe, expect, it } from 'vitest';
import { nativePost, shopRelay, site } from './shop-relay.js';

const relay = (minFillMs: number) => shopRelay({ minFillMs });
const formPost = (body: string, from: string, referer: string) =>
  nativePost('https://relay.example/contact', body, from, referer);

/** The confirmation page's form as the browser would post it. */
function formOf(page: string): string {
  const fields = new URLSearchParams();
  for (const [, name, value] of page.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields.set(name as string, decode(value as string));
  }
  for (const [, name, value] of page.matchAll(/<textarea name="([^"]+)"[^>]*>([^<]*)</g)) {
    fields.set(name as string, decode(value as string));
  }
  fields.set('homepage', '');
  return fields.toString();
}

const decode = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) =>
    entity === 'amp'
      ? '&'
      : entity === 'lt'
        ? '<'
        : entity === 'gt'
          ? '>'
          : entity === 'quot'
            ? '"'
            : "'",
  );

describe('a native post without a ticket', () => {
  const typed = {
    name: 'Ann "the <b>Bold</b>"',
    email: 'ann@example.com',
    subject: 'Hi & bye',
    message: 'Line one\n</textarea><script>x()</script>',
  };
  type Handler = ReturnType<typeof relay>['handler'];
  /** A native post of `typed` from the site's contact-us page, without a ticket. */
  const postTyped = (handler: Handler) =>
    handler(formPost(new URLSearchParams(typed).toString(), site, `${site}/contact-us`));
  const confirmationPage = async (handler: Handler) => (await postTyped(handler)).text();
  /** Posts the confirmation page's form as sent from the relay's own page. */
  const confirm = (handler: Handler, form: string) =>
    handler(formPost(form, 'https://relay.example', 'https://relay.example/contact'));

  it('gets a confirmation page with the text kept (escaped) and a fresh ticket, and nothing is sent', async () => {
    const { handler, fetch } = relay(0);
    const response = await postTyped(handler);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toContain('Please confirm your message');
    expect(page).not.toContain('<script>x()');
    expect(page).not.toContain('<b>Bold');
    expect(page).toMatch(/name="ticket" value="\d+\.[A-Za-z0-9_-]{43}"/);
    expect(page).toContain('action="/contact"');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is sent when the visitor confirms, and returns to the page the form was on', async () => {
    const { handler, fetch } = relay(0);
    const page = await confirmationPage(handler);
    const confirmed = await confirm(handler, formOf(page));
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${site}/contact-us?sent=1`);
    expect(fetch).toHaveBeenCalledTimes(1);
    const sent = JSON.parse(
      (fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string,
    );
    expect(sent.subject).toBe('[Shop] Hi & bye');
    expect(sent.content).toContain('&lt;/textarea&gt;');
  });

  it('confirmed sooner than the minimum fill time, shows the page again', async () => {
    const { handler, fetch } = relay(60_000);
    const page = await confirmationPage(handler);
    const again = await confirm(handler, formOf(page));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Please confirm your message');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('never returns to a page on an origin it does not allow', async () => {
    const { handler } = relay(0);
    const page = await confirmationPage(handler);
    const tampered = formOf(page).replace(
      /sitebeam_return=[^&]*/,
      `sitebeam_return=${encodeURIComponent('https://evil.example/phish')}`,
    );
    const answer = await confirm(handler, tampered);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).not.toContain('evil.example');
  });
});
