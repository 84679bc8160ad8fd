// Every page the `sitebeam-relay` command serves refuses to be framed by another origin, so a
// click inside a frame can never post from the relay's own origin. The pages are what a browser
// without JavaScript gets back from a post: the contact form's confirmation and refusal pages,
// the chat's answer and refusal pages. Debian's Chromium posts each into a frame.

import { expect, type Page, test } from '@playwright/test';
import { type RunningRelay, startRelay } from '../../snippet/test/relay/start-relay.ts';
import { type StaticSite, startStaticSite } from '../support/static-site.ts';
import { callStub, type RunningStub, startStub } from '../support/stub-server.ts';

let stub: RunningStub;
let relay: RunningRelay;
let allowedSite: StaticSite;
let otherSite: StaticSite;
const pages: Record<string, string> = {};

const framingPage = (action: string, fields: Record<string, string>) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Framing</title><link rel="icon" href="data:,"></head>
<body><form method="post" action="${action}" target="framed">
${Object.entries(fields)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
  .join('\n')}
<button>Send</button></form>
<iframe name="framed" title="framed"></iframe></body></html>`;

test.beforeAll(async () => {
  stub = await startStub();
  const { token } = await callStub<{ token: string }>(stub, '/__stub/accounts', 'POST', {
    email: 'frames@example.com',
    email_api: true,
    ai_api: true,
  });
  [allowedSite, otherSite] = await Promise.all([startStaticSite(pages), startStaticSite(pages)]);
  relay = await startRelay({
    SITEBEAM_API_URL: stub.url,
    SITEBEAM_API_TOKEN: token,
    SITEBEAM_CONTACT_TO: 'dev@example.com',
    SITEBEAM_CONTACT_FROM: 'forms@example.com',
    SITEBEAM_SITE_NAME: 'Example Shop',
    SITEBEAM_ALLOWED_ORIGINS: allowedSite.url,
    SITEBEAM_CHAT_MODELS: 'mock',
  });
  const contact = { name: 'Ada', email: 'ada@example.com', message: 'Hello' };
  pages['/contact'] = framingPage(`${relay.url}/contact`, contact);
  pages['/chat'] = framingPage(`${relay.url}/chat`, { message: 'Hello', model: 'mock' });
});

test.afterAll(async () => {
  await relay?.stop();
  await Promise.all([allowedSite?.close(), otherSite?.close()]);
  await stub?.stop();
});

/** Posts the page's form into its frame: the relay's answer, and whether the frame showed it. */
async function postIntoFrame(page: Page, url: string) {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes("frame-ancestors 'none'")) refusals.push(message.text());
  });
  await page.goto(url);
  const answered = page.waitForResponse((response) => response.url().startsWith(relay.url));
  await page.getByRole('button', { name: 'Send' }).click();
  const answer = await answered;
  await expect.poll(() => refusals.length).toBe(1);
  const frame = page.frame({ name: 'framed' });
  return {
    contentType: await answer.headerValue('content-type'),
    frameUrl: frame?.url(),
  };
}

const cases = [
  { page: '/contact', site: () => allowedSite, shows: 'the confirmation page' },
  { page: '/contact', site: () => otherSite, shows: 'the refusal page (origin not allowed)' },
  { page: '/chat', site: () => allowedSite, shows: 'the chat answer page' },
  { page: '/chat', site: () => otherSite, shows: 'the chat refusal page (origin not allowed)' },
];

for (const { page: path, site, shows } of cases) {
  test(`${shows} of the relay cannot be framed`, async ({ page }) => {
    const { contentType, frameUrl } = await postIntoFrame(page, `${site().url}${path}`);
    expect(contentType).toMatch(/^text\/html/);
    expect(frameUrl).not.toContain(relay.url);
  });
}
