// What the Drupal browser tests share: the site and stub addresses, small helpers, and `test`,
// which checks after each test that it left the stub and the browser as it found them.
import {
  type Browser,
  type BrowserContext,
  test as base,
  expect,
  type Page,
  type Request,
  type Response,
} from '@playwright/test';

export { expect };

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run these tests through tests/drupal/browser.sh`);
  return value;
}

export const drupalUrl = required('DRUPAL_URL');
export const stubUrl = required('STUB_URL');
export const apiToken = required('SITEBEAM_TEST_TOKEN');
/** The test site's settings.php, which browser.sh made writable. */
export const settingsPhp = required('DRUPAL_SETTINGS_PHP');
const adminPass = required('DRUPAL_ADMIN_PASS');

/** The module's settings form. */
export const settingsPath = '/admin/config/services/sitebeam';

export interface StubEmail {
  to: string;
  subject: string;
  content: string;
  replyto?: string;
  from?: string;
}

export async function stub<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stubUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`stub ${method} ${path}: ${response.status}`);
  return (await response.json()) as T;
}

export const stubEmails = async (): Promise<StubEmail[]> =>
  (await stub<{ emails: { message: StubEmail }[] }>('GET', '/__stub/emails')).emails.map(
    (e) => e.message,
  );

export const stubVisits = async (): Promise<{ website: string; referrer: string }[]> =>
  (await stub<{ visits: { website: string; referrer: string }[] }>('GET', '/__stub/visits')).visits;

/** Every answer the browser received (HTML, JSON, scripts), and those that held the token. */
export const answersSeen: string[] = [];
export const tokenLeaks: string[] = [];

export function guardToken(page: Page): void {
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!/html|json|javascript/.test(type)) return;
    const body = await response.text().catch(() => '');
    answersSeen.push(response.url());
    if (body.includes(apiToken)) tokenLeaks.push(response.url());
  });
}

/** A fault of the stub (its PUT /__stub/faults rule) without what it matches on. */
export interface StubFault {
  method: 'GET' | 'POST';
  path_prefix: string;
  status?: number;
  times?: number;
  retry_after?: number;
  delay_ms?: number;
  i18n_code?: string;
}

/**
 * Makes the stub answer `fault` to the one request carrying `marker` in its JSON body (text only
 * this test sends, such as its message), so no request of another test can take it.
 */
export async function injectFault(marker: string, fault: StubFault): Promise<void> {
  await stub('PUT', '/__stub/faults', { faults: [{ ...fault, body_contains: marker }] });
}

/** Requests each context's pages started that have not ended. */
const inFlight = new WeakMap<BrowserContext, Set<Request>>();

/** A new browser context whose requests are followed, for closeContext(). */
export async function newContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const pending = new Set<Request>();
  context.on('request', (request) => pending.add(request));
  context.on('requestfinished', (request) => pending.delete(request));
  context.on('requestfailed', (request) => pending.delete(request));
  inFlight.set(context, pending);
  return context;
}

/**
 * Closes the context once its pages are done: no widget busy (the chat retrying a warming model
 * waits between its requests) and no request in flight. Closing earlier cancels only the browser's
 * side: php -S, one request at a time, would still run the queued request in the next test.
 */
export async function closeContext(context: BrowserContext): Promise<void> {
  try {
    for (const page of context.pages()) {
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    }
    const pending = inFlight.get(context) ?? new Set<Request>();
    while (pending.size > 0) {
      await Promise.all(
        [...pending].map(async (request) => {
          await (await request.response().catch(() => null))?.finished().catch(() => null);
          pending.delete(request);
        }),
      );
    }
  } finally {
    await context.close();
  }
}

export async function anonymousContext(
  browser: Browser,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  return newContext(browser, { baseURL: drupalUrl, ...options });
}

/** A visitor's page in a context of its own (see anonymousContext), its answers checked for the token. */
export async function visitorPage(
  browser: Browser,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const page = await (await anonymousContext(browser, options)).newPage();
  guardToken(page);
  return page;
}

export async function adminPage(browser: Browser): Promise<Page> {
  return signedInPage(browser, 'admin');
}

/** A page signed in as `name`: `admin`, or `editor` (no Sitebeam permission; site-setup.php). */
export async function signedInPage(browser: Browser, name: string): Promise<Page> {
  const context = await newContext(browser, { baseURL: drupalUrl });
  const page = await context.newPage();
  guardToken(page);
  await page.goto('/user/login');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill(adminPass);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: 'Log out' }).first()).toBeAttached();
  return page;
}

/**
 * Sends `message` with the page's chat widget once the widget has its models, and gives the
 * endpoint's answer to that post. Not any answer from /sitebeam/chat: the widget's own GET of the
 * models starts as the page loads, and on php -S, one request at a time, its 200 could still be on
 * the way when the message is sent (the 429 test read that 200 on a busy machine).
 */
export async function sendChat(page: Page, message: string): Promise<Response> {
  const chat = page.locator('sitebeam-chat');
  await expect(chat.getByLabel('Model')).toBeVisible();
  await chat.getByLabel('Your message').fill(message);
  const answer = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      response.url().endsWith('/sitebeam/chat') &&
      (response.request().postData() ?? '').includes(JSON.stringify(message).slice(1, -1)),
  );
  await chat.getByRole('button', { name: 'Send' }).click();
  return answer;
}

/** Saves the settings form on `page`, which must say so. */
export async function saveSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save configuration' }).click();
  // Not getByText: Drupal's live region repeats the message for screen readers. A settings.php
  // override adds a status message of its own.
  await expect(
    page
      .locator('.messages--status')
      .filter({ hasText: 'The configuration options have been saved.' }),
  ).toBeVisible();
}

/** Saves the settings form on `page`, which must refuse it saying `message`. */
export async function saveSettingsRefused(page: Page, message: string): Promise<void> {
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.locator('.messages--error')).toContainText(message);
}

/** Saves the stub's address as the instance on the settings form, whichever spec ran before. */
export async function saveStubAddress(admin: Page): Promise<void> {
  await admin.goto(settingsPath);
  await admin.getByLabel('Instance base URL').fill(stubUrl);
  await saveSettings(admin);
}

/** Fills the contact block's fields as a visitor does. */
export async function fillContactForm(page: Page, message: string): Promise<void> {
  await page.getByLabel('Your name').fill('Ann Visitor');
  await page.getByLabel('Your email address').fill('ann@example.com');
  await page.getByLabel('Subject').fill('Prices');
  await page.getByLabel('Message', { exact: true }).fill(message);
}

/**
 * Playwright's test, which fails a test after which an answer the browser received held the API
 * token, or that leaves a fault on the stub or a browser context open (then clears and closes them,
 * so the next test starts clean).
 */
export const test = base.extend<{ leavesNoTrace: undefined }>({
  leavesNoTrace: [
    async ({ browser }, use) => {
      await use(undefined);
      const { faults } = await stub<{ faults: unknown[] }>('GET', '/__stub/faults');
      const open = browser.contexts();
      await stub('DELETE', '/__stub/faults');
      for (const context of open) await closeContext(context);
      expect(tokenLeaks, 'answers that held the API token').toEqual([]);
      expect(faults, 'faults the test left on the stub').toEqual([]);
      expect(open.length, 'browser contexts the test left open').toBe(0);
    },
    { auto: true },
  ],
});
