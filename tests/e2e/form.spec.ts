// The contact widget in Debian's Chromium: a customer page on its own origin, the real
// `sitebeam-relay` command, and the real stub behind it.

import { type Browser, expect, type Page, test } from '@playwright/test';
import { type RunningRelay, startRelay } from '../../snippet/test/relay/start-relay.ts';
import { axeViolations } from '../support/axe.ts';
import { answersOf, dialogsOf, expectNoFaultLeftAfterEach } from '../support/e2e-checks.ts';
import { type StaticSite, startStaticSite } from '../support/static-site.ts';
import { callStub, injectFault, type RunningStub, startStub } from '../support/stub-server.ts';

const recipient = 'dev@example.com';
const visitor = {
  name: 'Ada <script>alert("name")</script>',
  email: 'ada@example.com',
  subject: 'A question',
  message: 'Hello,\n<script>alert("x")</script>\nBye',
};
const pages: Record<string, string> = {};
const minFillMs = 1500;
let stub: RunningStub;
let site: StaticSite;
let strictSite: StaticSite;
let relay: RunningRelay;
let token: string;

function plainFormPage(action: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contact us</title></head>
<body><main>
<h1>Contact us</h1>
<form data-sitebeam-form action="${action}" method="post">
  <p><label for="name">Name</label><input id="name" name="name" required maxlength="200" autocomplete="name"></p>
  <p><label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="email"></p>
  <p><label for="subject">Subject</label><input id="subject" name="subject" maxlength="200"></p>
  <p><label for="message">Message</label><textarea id="message" name="message" required></textarea></p>
  <div aria-hidden="true" style="position:absolute;left:-9999px"><label>Leave empty <input name="homepage" tabindex="-1" autocomplete="off"></label></div>
  <p><button type="submit">Send</button></p>
</form>
</main>
<script src="/sitebeam-form.min.js"></script>
</body></html>`;
}

function elementPage(action: string, pageStyle = true) {
  const style = `<style>body{font-family:Georgia,serif;color:#222;background:#fffdf5}
sitebeam-contact-form{--sitebeam-accent:#14532d;--sitebeam-accent-text:#fff}</style>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Write to us</title>
${pageStyle ? style : ''}
<script defer src="/sitebeam-form.min.js"></script></head>
<body><main><h1>Write to us</h1>
<sitebeam-contact-form action="${action}"></sitebeam-contact-form>
</main></body></html>`;
}

const stubJson = (path: string, method = 'GET', body?: unknown) =>
  // biome-ignore lint/suspicious/noExplicitAny: the stub's JSON, read field by field in assertions.
  callStub<any>(stub, path, method, body);

async function inbox(): Promise<Array<{ message: Record<string, string> }>> {
  return (await stubJson('/__stub/emails')).emails;
}

async function fillForm(page: Page) {
  await page.getByLabel('Name').fill(visitor.name);
  await page.getByLabel('Email').fill(visitor.email);
  await page.getByLabel('Subject').fill(visitor.subject);
  await page.getByLabel('Message').fill(visitor.message);
}

async function expectFieldsKept(page: Page) {
  await expect(page.getByLabel('Name')).toHaveValue(visitor.name);
  await expect(page.getByLabel('Email')).toHaveValue(visitor.email);
  await expect(page.getByLabel('Subject')).toHaveValue(visitor.subject);
  await expect(page.getByLabel('Message')).toHaveValue(visitor.message);
}

test.beforeAll(async () => {
  stub = await startStub();
  // An account of its own, so its token is a value no page or answer may contain.
  const account = await stubJson('/__stub/accounts', 'POST', {
    email: recipient.replace('dev@', 'relay@'),
    email_api: true,
    ai_api: false,
  });
  token = account.token;
  expect(token).toBeTruthy();
  site = await startStaticSite(pages);
  strictSite = await startStaticSite(pages, {
    'content-security-policy':
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src http://127.0.0.1:*",
  });
  relay = await startRelay({
    SITEBEAM_API_URL: stub.url,
    SITEBEAM_API_TOKEN: token,
    SITEBEAM_CONTACT_TO: recipient,
    SITEBEAM_CONTACT_FROM: 'forms@example.com',
    SITEBEAM_ALLOWED_ORIGINS: `${site.url},${strictSite.url}`,
    SITEBEAM_SITE_NAME: 'Example Shop',
    // Short enough for quick tests, long enough to prove the widget waits for its ticket.
    SITEBEAM_MIN_FILL_MS: String(minFillMs),
    SITEBEAM_RATE_LIMIT: '100',
    // A browser sends only the origin as Referer across sites: the relay needs the page.
    SITEBEAM_REDIRECT_URL: `${site.url}/contact`,
  });
  pages['/contact'] = plainFormPage(`${relay.url}/contact`);
  pages['/write'] = elementPage(`${relay.url}/contact`);
  pages['/write-unstyled'] = elementPage(`${relay.url}/contact`, false);
});

test.afterAll(async () => {
  await relay?.stop();
  await site?.close();
  await strictSite?.close();
  await stub?.stop();
});

test.beforeEach(async () => {
  await stubJson('/__stub/emails', 'DELETE');
});

expectNoFaultLeftAfterEach(() => stub);

test('a sent form delivers exactly one mail to the configured recipient, visitor markup as text', async ({
  page,
}) => {
  const dialogs = dialogsOf(page);
  await page.goto(`${site.url}/contact`);
  await fillForm(page);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you, your message was sent.');

  const emails = await inbox();
  expect(emails).toHaveLength(1);
  const message = emails[0]?.message ?? {};
  expect(message.to).toBe(recipient);
  expect(message.replyto).toBe(visitor.email);
  expect(message.subject).toBe('[Example Shop] A question');

  // Rendered as a mail client would: the visitor's <script> shows as text and never runs.
  await page.setContent(message.content ?? '');
  await expect(page.locator('body')).toContainText('<script>alert("x")</script>');
  await expect(page.locator('body')).toContainText(visitor.name);
  expect(await page.locator('script').count()).toBe(0);
  expect(dialogs).toEqual([]);
});

test('the widget sends the ticket the relay issued, no sooner than the minimum fill time', async ({
  page,
}) => {
  const requests: Array<{ method: string; at: number; body: string | null }> = [];
  page.on('request', (request) => {
    if (request.url().startsWith(relay.url)) {
      requests.push({ method: request.method(), at: Date.now(), body: request.postData() });
    }
  });
  await page.goto(`${site.url}/contact`);
  await page.getByLabel('Name').click();
  await fillForm(page);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you, your message was sent.');
  const get = requests.find((request) => request.method === 'GET');
  const post = requests.find((request) => request.method === 'POST');
  expect(get && post).toBeTruthy();
  expect(JSON.parse(post?.body ?? '{}').ticket).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
  expect((post?.at ?? 0) - (get?.at ?? 0)).toBeGreaterThanOrEqual(minFillMs);
  expect(await inbox()).toHaveLength(1);
});

test('a script posting from the page without a ticket, or at once, is refused as spam', async ({
  page,
}) => {
  await page.goto(`${site.url}/contact`);
  const answers = await page.evaluate(async (action) => {
    const post = async (ticket?: string) => {
      const body = { name: 'Bot', email: 'bot@example.com', message: 'Buy', ticket };
      const response = await fetch(action, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return [response.status, await response.json()];
    };
    const fresh = (await (await fetch(action)).json()).ticket;
    return [await post(), await post(fresh)];
  }, `${relay.url}/contact`);
  for (const [status, answer] of answers) {
    expect(status).toBe(400);
    expect(answer).toMatchObject({ i18n_code: 'spam_suspected', field: 'ticket' });
  }
  expect(await inbox()).toHaveLength(0);
});

test('an API fault shows the error, keeps every field, and a retry succeeds', async ({ page }) => {
  // The mail of this form's send only: it holds the visitor's subject.
  await injectFault(
    stub,
    { body_contains: visitor.subject },
    { method: 'POST', path_prefix: '/v1/email', status: 500, times: 1 },
  );
  await page.goto(`${site.url}/contact`);
  await fillForm(page);
  const send = page.getByRole('button', { name: 'Send' });
  await send.click();
  await expect(page.getByRole('status')).toHaveText(
    'Not sent: the server had a problem. Please try again.',
  );
  await expectFieldsKept(page);
  await expect(send).toBeEnabled();
  expect(await inbox()).toHaveLength(0);

  await send.click();
  await expect(page.getByRole('status')).toHaveText('Thank you, your message was sent.');
  expect(await inbox()).toHaveLength(1);
});

test('a refused field is named and focused, with the text kept', async ({ page }) => {
  await page.goto(`${site.url}/contact`);
  await fillForm(page);
  await page.getByLabel('Email').fill('ada@example');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Please enter a valid email address.');
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Message')).toHaveValue(visitor.message);
  expect(await inbox()).toHaveLength(0);
});

test.describe('without JavaScript', () => {
  async function noScriptPage(browser: Browser) {
    const context = await browser.newContext({ javaScriptEnabled: false });
    return { context, page: await context.newPage() };
  }

  /** The relay's confirmation page: the visitor's text kept, a fresh ticket; Send after a moment. */
  async function confirm(page: Page) {
    await expect(page.getByRole('heading', { name: 'Please confirm your message' })).toBeVisible();
    await expectFieldsKept(page);
    await page.waitForTimeout(minFillMs + 200);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  test('the native post is confirmed once, sent, and redirects back with ?sent=1', async ({
    browser,
  }) => {
    const { context, page } = await noScriptPage(browser);
    await page.goto(`${site.url}/contact`);
    await fillForm(page);
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await inbox()).toHaveLength(0);
    await confirm(page);
    await page.waitForURL(`${site.url}/contact?sent=1`);
    const emails = await inbox();
    expect(emails).toHaveLength(1);
    expect(emails[0]?.message.to).toBe(recipient);
    await context.close();
  });

  test('a refused native post shows a plain page naming the problem', async ({ browser }) => {
    const { context, page } = await noScriptPage(browser);
    await page.goto(`${site.url}/contact`);
    await fillForm(page);
    // Without the widget the browser's own validation would stop this; the relay must too.
    await page.locator('form').evaluate((form) => form.setAttribute('novalidate', ''));
    await page.getByLabel('Email').fill('ada@example');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('heading', { name: 'Please confirm your message' })).toBeVisible();
    await page.waitForTimeout(minFillMs + 200);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('heading', { name: 'Message not sent' })).toBeVisible();
    await expect(page.getByText('Email is not a valid email address.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'go back to the site' })).toHaveAttribute(
      'href',
      `${site.url}/contact`,
    );
    expect(await inbox()).toHaveLength(0);
    await context.close();
  });
});

test.describe('<sitebeam-contact-form>', () => {
  test('is usable with the keyboard alone', async ({ page }) => {
    await page.goto(`${site.url}/write`);
    await expect(page.getByLabel('Name')).toBeVisible();
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Ada');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Message')).toBeFocused();
    await page.keyboard.type('Sent with the keyboard only');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toHaveText('Thank you, your message was sent.');
    expect((await inbox())[0]?.message.content).toContain('Sent with the keyboard only');
  });

  test('is styled and sends under a strict Content-Security-Policy (no inline style or script)', async ({
    page,
  }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.goto(`${strictSite.url}/write-unstyled`);
    await expect(page.locator('.sitebeam-form')).toHaveCSS('display', 'grid');
    await expect(page.getByText('Name', { exact: true })).toHaveCSS('font-weight', '600');
    await fillForm(page);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status')).toHaveText('Thank you, your message was sent.');
    expect(violations).toEqual([]);
  });

  test('focuses the first missing field', async ({ page }) => {
    await page.goto(`${site.url}/write`);
    await page.getByLabel('Name').fill('Ada');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByRole('status')).toHaveText('Please fill in “Email”.');
  });
});

test('axe finds no accessibility violation, at rest and in the error state', async ({ page }) => {
  for (const path of ['/contact', '/write']) {
    await page.goto(`${site.url}${path}`);
    await expect(page.getByLabel('Name')).toBeVisible();
    expect(await axeViolations(page), `${path} at rest`).toEqual([]);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status')).not.toBeEmpty();
    expect(await axeViolations(page), `${path} with an error`).toEqual([]);
  }
});

test('the API token appears in no page or answer the browser receives', async ({ page }) => {
  const seen = answersOf(page);
  const send = async (expected: string) => {
    await page.goto(`${site.url}/contact`);
    await fillForm(page);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status')).toHaveText(expected);
  };

  await send('Thank you, your message was sent.');
  await injectFault(
    stub,
    { body_contains: visitor.subject },
    { method: 'POST', path_prefix: '/v1/email', status: 500, times: 1 },
  );
  await send('Not sent: the server had a problem. Please try again.');
  await stubJson(`/__stub/accounts/${encodeURIComponent('relay@example.com')}`, 'PATCH', {
    email_api: false,
  });
  try {
    await send('Not sent: this form is not set up yet. Please contact us another way.');
  } finally {
    await stubJson(`/__stub/accounts/${encodeURIComponent('relay@example.com')}`, 'PATCH', {
      email_api: true,
    });
  }

  // Three sends, each a GET for a ticket and a POST.
  await expect.poll(() => seen.filter((entry) => entry.startsWith(relay.url)).length).toBe(6);
  expect(seen.length).toBeGreaterThanOrEqual(6);
  for (const entry of seen) expect(entry).not.toContain(token);
});
