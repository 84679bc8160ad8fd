// The demo a newcomer gets from `npm start`, in Debian's Chromium: the page records its own visit
// and shows it, its contact form reaches the inbox, and captured mail cannot run script there.
import { chromium, expect, type Page, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';
import { callStub, type RunningStub, startStub } from '../support/stub-server.ts';

let stub: RunningStub;

test.beforeAll(async () => {
  stub = await startStub();
});
test.afterAll(() => stub.stop());

/** A person's browser: the demo's tag does not count automated browsers. */
async function personPage() {
  const browser = await chromium.launch(chromiumLaunchOptions);
  const page = await browser.newPage();
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }),
  );
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { browser, page, errors };
}

// biome-ignore lint/suspicious/noExplicitAny: the stub's JSON, read field by field in assertions.
const json = (path: string) => callStub<any>(stub, path);

test('opening the demo records one visit and shows it on the page', async () => {
  await fetch(`${stub.url}/__stub/visits`, { method: 'DELETE' });
  const { browser, page, errors } = await personPage();
  try {
    await page.goto(`${stub.url}/`);
    await expect(page.locator('#own-visit')).toContainText('"website": "demo.sitebeam.test"');
    await expect(page.locator('#visit-rows')).toContainText('demo.sitebeam.test');
    const { visits } = await json('/__stub/visits');
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({
      website: 'demo.sitebeam.test',
      referrer: `${stub.url}/`,
      browser: 'chrome',
    });
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain('dev-token');
  } finally {
    await browser.close();
  }
});

async function sendContactForm(page: Page, message: string) {
  await page.getByLabel('Name', { exact: true }).fill('Ada');
  await page.getByLabel('Email', { exact: true }).fill('ada@example.org');
  await page.getByLabel('Message', { exact: true }).fill(message);
  // The form refuses posts sooner than 3 s after it started (a bot's speed).
  await page.waitForTimeout(3100);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('the demo contact form delivers to the inbox, where mail script never runs', async () => {
  await fetch(`${stub.url}/__stub/emails`, { method: 'DELETE' });
  const { browser, page, errors } = await personPage();
  try {
    await page.goto(`${stub.url}/`);
    await sendContactForm(
      page,
      'Hello <img src=x onerror="document.title=\'pwned\'"> <script>document.title="pwned"</script>',
    );
    await expect(page.locator('[data-sitebeam-status]')).toContainText(/sent/i);
    const { emails } = await json('/__stub/emails');
    expect(emails).toHaveLength(1);
    expect(emails[0].message).toMatchObject({ to: 'dev@example.com', replyto: 'ada@example.org' });

    // Mail whose body would run script if anything rendered it unsandboxed.
    await fetch(`${stub.url}/v1/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': 'dev-token' },
      body: JSON.stringify({
        to: 'owner@example.com',
        subject: 'Hostile <b>subject</b>',
        content:
          '<p id="body">Body</p><script>parent.document.title="pwned"; document.title="pwned"</script><img src=x onerror="parent.document.title=\'pwned\'">',
      }),
    });
    await page.goto(`${stub.url}/__stub/inbox`);
    await expect(page.getByRole('heading', { name: 'Hostile <b>subject</b>' })).toBeVisible();
    const frame = page.frameLocator('iframe[title^="Body of Hostile"]');
    await expect(frame.locator('#body')).toHaveText('Body');
    // The body's load event comes after its broken image's error event, whose handler would run.
    const body = await page.locator('iframe[title^="Body of Hostile"]').elementHandle();
    await (await body?.contentFrame())?.waitForLoadState('load');
    expect(await page.title()).toMatch(/^Inbox/);
    expect(
      await page
        .locator('iframe')
        .first()
        .evaluate((element) => element.getAttribute('sandbox')),
    ).toBe('');
    expect(
      errors.filter((error) => !/Content Security Policy|Blocked script|sandboxed/i.test(error)),
    ).toEqual([]);
  } finally {
    await browser.close();
  }
});
