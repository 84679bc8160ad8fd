// What the Drupal browser tests share: the site and stub addresses, and small helpers.
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

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

export async function anonymousContext(
  browser: Browser,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  return browser.newContext({ baseURL: drupalUrl, ...options });
}

export async function adminPage(browser: Browser): Promise<Page> {
  return signedInPage(browser, 'admin');
}

/** A page signed in as `name`: `admin`, or `editor` (no Sitebeam permission; site-setup.php). */
export async function signedInPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: drupalUrl });
  const page = await context.newPage();
  guardToken(page);
  await page.goto('/user/login');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill(adminPass);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: 'Log out' }).first()).toBeAttached();
  return page;
}

/** Fills the contact block's fields as a visitor does. */
export async function fillContactForm(page: Page, message: string): Promise<void> {
  await page.getByLabel('Your name').fill('Ann Visitor');
  await page.getByLabel('Your email address').fill('ann@example.com');
  await page.getByLabel('Subject').fill('Prices');
  await page.getByLabel('Message', { exact: true }).fill(message);
}
