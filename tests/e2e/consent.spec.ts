// The owner's consent checkbox in Debian's Chromium: the contact and chat widgets on a customer
// page, and the relay's own pages without JavaScript, in front of the real `sitebeam-relay`
// command (SITEBEAM_CONTACT_CONSENT…, SITEBEAM_CHAT_CONSENT…) and the real stub.

import { expect, type Page, test } from '@playwright/test';
import { type RunningRelay, startRelay } from '../../snippet/test/relay/start-relay.ts';
import { type StaticSite, startStaticSite } from '../support/static-site.ts';
import { callStub, type RunningStub, startStub } from '../support/stub-server.ts';

const contactLabel = 'I agree that my message is kept <b>to answer me</b>';
const chatLabel = 'I agree that my messages go to an AI model';
const agreement = `The visitor agreed: ${contactLabel.replace('<b>', '&lt;b&gt;').replace('</b>', '&lt;/b&gt;')}`;
const pages: Record<string, string> = {};
let stub: RunningStub;
let site: StaticSite;
let relay: RunningRelay;

const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function widgetPage(body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contact us</title>
<script defer src="/sitebeam-form.min.js"></script><script defer src="/sitebeam-chat.min.js"></script></head>
<body><main><h1>Contact us</h1>${body}</main></body></html>`;
}

async function inbox(): Promise<Array<{ message: { content: string } }>> {
  return (
    await callStub<{ emails: Array<{ message: { content: string } }> }>(stub, '/__stub/emails')
  ).emails;
}

async function fillContact(page: Page) {
  await page.getByLabel('Name', { exact: true }).fill('Ada');
  await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
  await page.getByLabel('Message', { exact: true }).fill('Keep this text');
}

test.beforeAll(async () => {
  [stub, site] = await Promise.all([startStub(), startStaticSite(pages)]);
  const account = await callStub<{ token: string }>(stub, '/__stub/accounts', 'POST', {
    email: 'consent@example.com',
    email_api: true,
    ai_api: true,
  });
  relay = await startRelay({
    SITEBEAM_API_URL: stub.url,
    SITEBEAM_API_TOKEN: account.token,
    SITEBEAM_CONTACT_TO: 'dev@example.com',
    SITEBEAM_CONTACT_FROM: 'forms@example.com',
    SITEBEAM_ALLOWED_ORIGINS: site.url,
    SITEBEAM_SITE_NAME: 'Example Shop',
    SITEBEAM_MIN_FILL_MS: '0',
    SITEBEAM_REDIRECT_URL: `${site.url}/plain`,
    SITEBEAM_CONTACT_CONSENT: contactLabel,
    SITEBEAM_CONTACT_CONSENT_URL: `${site.url}/privacy`,
    SITEBEAM_CHAT_MODELS: 'mock',
    SITEBEAM_CHAT_CONSENT: chatLabel,
  });
  pages['/form'] = widgetPage(
    `<sitebeam-contact-form action="${relay.url}/contact" consent-label="${attribute(contactLabel)}" consent-url="${site.url}/privacy"></sitebeam-contact-form>`,
  );
  pages['/chat'] = widgetPage(
    `<sitebeam-chat action="${relay.url}/chat" consent-label="${attribute(chatLabel)}"></sitebeam-chat>`,
  );
  // A site page written before the owner turned the checkbox on: the relay asks for it itself.
  pages['/plain'] =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title></head>
<body><form action="${relay.url}/contact" method="post">
<p><label for="name">Name</label><input id="name" name="name"></p>
<p><label for="email">Email</label><input id="email" name="email"></p>
<p><label for="message">Message</label><textarea id="message" name="message"></textarea></p>
<button>Send</button></form></body></html>`;
  pages['/privacy'] = '<!doctype html><title>Privacy</title><h1>Privacy</h1>';
});

test.afterAll(async () => {
  await relay?.stop();
  await site?.close();
  await stub?.stop();
});

test.beforeEach(async () => {
  await callStub(stub, '/__stub/emails', 'DELETE');
});

test('the contact widget refuses an unticked box (marked, text kept), then sends and the mail says the visitor agreed', async ({
  page,
}) => {
  await page.goto(`${site.url}/form`);
  const consent = page.getByRole('checkbox', { name: contactLabel });
  await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
    'target',
    '_blank',
  );
  await fillContact(page);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Please tick the consent box.');
  await expect(consent).toHaveAttribute('aria-invalid', 'true');
  await expect(consent).toBeFocused();
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('Keep this text');
  expect(await inbox()).toHaveLength(0);

  await consent.check();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you, your message was sent.');
  const mail = await inbox();
  expect(mail).toHaveLength(1);
  expect(mail[0]?.message.content).toContain(agreement);
});

test('the chat widget asks for the box before the first message, then answers', async ({
  page,
}) => {
  await page.goto(`${site.url}/chat`);
  await page.getByLabel('Your message').fill('Hello');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Please tick the consent box.');
  const consent = page.getByRole('checkbox', { name: chatLabel });
  await expect(consent).toBeFocused();
  await expect(page.getByLabel('Your message')).toHaveValue('Hello');
  await expect(page.getByRole('log').locator('.sitebeam-chat-turn')).toHaveCount(0);

  await consent.check();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('log').locator('.sitebeam-chat-turn')).toHaveCount(1);
  await expect(page.getByRole('status')).toBeEmpty();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test("a form without the box gets the relay's page with the text kept and the box; ticked, it is sent", async ({
    page,
  }) => {
    await page.goto(`${site.url}/plain`);
    await fillContact(page);
    await page.getByRole('button', { name: 'Send' }).click();
    // No ticket without JavaScript: the relay's confirmation page, now with the checkbox.
    await expect(page.getByRole('heading', { name: 'Please confirm your message' })).toBeVisible();
    await expect(page.locator('textarea[name=message]')).toHaveValue('Keep this text');
    expect(await inbox()).toHaveLength(0);
    // Sent without the box (the browser's own check bypassed, as a script would): refused, kept.
    await page.locator('form').evaluate((form: HTMLFormElement) => {
      form.noValidate = true;
    });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Please tick the consent box to send your message.',
    );
    await expect(page.locator('textarea[name=message]')).toHaveValue('Keep this text');
    expect(await inbox()).toHaveLength(0);

    await page.getByRole('checkbox', { name: contactLabel }).check();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(`${site.url}/plain?sent=1`);
    const mail = await inbox();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.message.content).toContain(agreement);
  });
});
