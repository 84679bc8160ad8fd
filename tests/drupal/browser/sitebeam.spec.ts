// The Sitebeam module on a real Drupal (10.5.8, 10.3.14), with Debian's Chromium and the real server stub.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { acceptButton, addKlaroToEveryPage, withdrawInKlaro } from '../../support/klaro.ts';
import {
  adminPage,
  anonymousContext,
  answersSeen,
  apiToken,
  closeContext,
  drupalUrl,
  expect,
  fillContactForm,
  injectFault,
  saveSettings,
  saveSettingsRefused,
  settingsPath,
  settingsPhp,
  stub,
  stubEmails,
  stubUrl,
  stubVisits,
  test,
  tokenLeaks,
  visitorPage,
} from './site.ts';

test.describe.configure({ mode: 'serial' });

async function clearCaches(admin: Page): Promise<void> {
  await admin.goto('/admin/config/development/performance');
  await admin.getByRole('button', { name: 'Clear all caches' }).click();
  await expect(admin.getByText('Caches cleared.').first()).toBeVisible();
}

test('the settings form says where the token comes from, refuses plain http and saves', async ({
  browser,
}) => {
  const page = await adminPage(browser);
  await page.goto(settingsPath);
  await expect(page.getByText('The API token is set in settings.php')).toBeVisible();
  await expect(page.locator('input[name="api_token"]')).toHaveCount(0);

  await page.getByLabel('Instance base URL').fill('http://api.example.com');
  await saveSettingsRefused(page, 'must use https');

  await page.getByLabel('Instance base URL').fill(stubUrl);
  await page.getByRole('checkbox', { name: 'Administrator' }).check();
  await page.getByLabel('Send all site mail through the API').check();
  // The service refuses addresses at special-use domains: said on save, naming the address.
  await page.getByLabel('Recipient').fill('owner@shop.local');
  await saveSettingsRefused(
    page,
    'The Sitebeam API refuses owner@shop.local: .local is a special-use domain',
  );
  await page.getByLabel('Recipient').fill('owner@example.com');
  await saveSettings(page);
  await expect(page.getByLabel('Instance base URL')).toHaveValue(stubUrl);
  await expect(page.getByLabel('Send all site mail through the API')).toBeChecked();
  expect(await page.content()).not.toContain(apiToken);
  await closeContext(page.context());
});

test('Test connection and Send test email report what the instance answered', async ({
  browser,
}) => {
  await stub('DELETE', '/__stub/emails');
  const page = await adminPage(browser);
  await page.goto(settingsPath);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByText(
      `Email: connected to ${stubUrl}, the token is accepted and email sending is enabled for the account (nothing was sent).`,
    ),
  ).toBeVisible();
  await expect(page.getByText(/^AI: \d+ models available for the chat\.$/)).toBeVisible();
  expect(await stubEmails()).toHaveLength(0);

  // Without the AI API, email still works: said apart, as a warning.
  await stub('PATCH', '/__stub/accounts/drupal-owner@example.com', { ai_api: false });
  try {
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.locator('.messages--status')).toContainText('Email: connected to');
    await expect(page.locator('.messages--warning')).toContainText(
      `AI: The instance at ${stubUrl} does not offer the AI API to this account (403`,
    );
    await expect(page.locator('.messages--error')).toHaveCount(0);
  } finally {
    await stub('PATCH', '/__stub/accounts/drupal-owner@example.com', { ai_api: true });
  }

  // The settings.php token goes to the saved address only, never to one just typed.
  const unsaved = stubUrl.replace('127.0.0.1', 'localhost');
  await page.getByLabel('Instance base URL').fill(unsaved);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.locator('.messages--error')).toContainText(
    `is only sent to the saved instance address, not to ${unsaved}`,
  );
  await page.goto(settingsPath);

  await page.getByRole('button', { name: 'Send test email' }).click();
  await expect(page.getByText('A test email was sent to admin@example.com')).toBeVisible();
  const emails = await stubEmails();
  expect(emails).toHaveLength(1);
  expect(emails[0]?.to).toBe('admin@example.com');
  expect(emails[0]?.subject).toContain('Sitebeam test email');

  await stub('PATCH', '/__stub/accounts/drupal-owner@example.com', { email_api: false });
  try {
    await page.getByRole('button', { name: 'Send test email' }).click();
    await expect(page.getByText('Email sending is not enabled for this account')).toBeVisible();
    await expect(page.getByText('Ask the instance support or administrator')).toBeVisible();
  } finally {
    await stub('PATCH', '/__stub/accounts/drupal-owner@example.com', { email_api: true });
  }
  await closeContext(page.context());
});

test('anonymous page views reach the stub, administrators are not tracked', async ({ browser }) => {
  await stub('DELETE', '/__stub/visits');
  const page = await visitorPage(browser);

  await page.goto('/');
  const tag = page.locator('script[data-api]');
  await expect(tag).toHaveAttribute('data-api', stubUrl);
  await expect(tag).toHaveAttribute('defer', /.*/);
  await expect(tag).toHaveAttribute('src', /\/modules\/custom\/sitebeam\/js\/sitebeam\.min\.js/);
  await expect.poll(async () => (await stubVisits()).length).toBe(1);
  const [visit] = await stubVisits();
  expect(visit?.website).toBe('127.0.0.1');
  expect(visit?.referrer).toBe(`${drupalUrl}/`);

  await page.goto('/user/login');
  await expect.poll(async () => (await stubVisits()).length).toBe(2);
  await closeContext(page.context());

  // The login page itself is an anonymous view (the third): count from after it.
  const admin = await adminPage(browser);
  await expect.poll(async () => (await stubVisits()).length).toBe(3);
  const toStub: string[] = [];
  admin.on('request', (request) => {
    if (request.url().startsWith(stubUrl)) toStub.push(request.url());
  });
  await admin.goto('/');
  await expect(admin.locator('script[data-api]')).toHaveCount(0);
  await admin.goto(settingsPath);
  await expect(admin.locator('script[data-api]')).toHaveCount(0);
  // Without the tag nothing can count a view: the loaded pages asked the stub nothing.
  expect(toStub).toEqual([]);
  await closeContext(admin.context());
  expect(await stubVisits()).toHaveLength(3);
});

test('without JavaScript the noscript pixel records the visit', async ({ browser }) => {
  await stub('DELETE', '/__stub/visits');
  const context = await anonymousContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/user/login');
  await expect.poll(async () => (await stubVisits()).length).toBe(1);
  expect((await stubVisits())[0]?.website).toBe('127.0.0.1');
  await closeContext(context);
});

test("a page URL's secrets stay out of the visit record, with and without JavaScript", async ({
  browser,
}) => {
  const secretPage = '/user/login?token=SECRET-RESET&ref=newsletter&utm_source=x';
  const recordedReferrer = async (javaScriptEnabled: boolean): Promise<string | undefined> => {
    await stub('DELETE', '/__stub/visits');
    const context = await anonymousContext(browser, { javaScriptEnabled });
    await (await context.newPage()).goto(secretPage);
    await expect.poll(async () => (await stubVisits()).length).toBe(1);
    await closeContext(context);
    return (await stubVisits())[0]?.referrer;
  };
  const keepQuery = async (value: string) => {
    const admin = await adminPage(browser);
    await admin.goto(settingsPath);
    await admin.getByLabel('Keep query parameters').fill(value);
    await saveSettings(admin);
    await closeContext(admin.context());
  };

  // By default: the campaign parameters only; the pixel the origin only.
  expect(await recordedReferrer(true)).toBe(`${drupalUrl}/user/login?utm_source=x`);
  expect(await recordedReferrer(false)).toBe(`${drupalUrl}/`);
  try {
    await keepQuery('ref');
    expect(await recordedReferrer(true)).toBe(`${drupalUrl}/user/login?ref=newsletter`);
    expect(await recordedReferrer(false)).toBe(`${drupalUrl}/`);
  } finally {
    await keepQuery('');
  }
});

test('settings.php overrides reach the tracker tag and the noscript pixel', async ({ browser }) => {
  const original = readFileSync(settingsPhp, 'utf8');
  const admin = await adminPage(browser);
  const saveBaseUrl = async (url: string) => {
    await admin.goto(settingsPath);
    await admin.getByLabel('Instance base URL').fill(url);
    await saveSettings(admin);
  };
  try {
    writeFileSync(
      settingsPhp,
      `${original}\n$config['sitebeam.settings']['base_url'] = '${stubUrl}';\n$config['sitebeam.settings']['website'] = 'settings-php.example';\n`,
    );
    // A $config override carries no cache tag, so pages cached before the edit keep the old values
    // until a save or cache clear: saving invalidates them. No cache clear is needed (browser.sh
    // makes php -S read the edited settings.php on the next request).
    await saveBaseUrl('https://stored.example.test');
    await stub('DELETE', '/__stub/visits');
    const context = await anonymousContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/user/login');
    await expect(page.locator('script[data-api]')).toHaveAttribute('data-api', stubUrl);
    await expect(page.locator('script[data-api]')).toHaveAttribute(
      'data-website',
      'settings-php.example',
    );
    expect(await page.content()).toContain(`src="${stubUrl}/v1/tracker/img/settings-php.example"`);
    await expect.poll(async () => (await stubVisits()).length).toBe(1);
    expect((await stubVisits())[0]?.website).toBe('settings-php.example');
    await closeContext(context);
  } finally {
    writeFileSync(settingsPhp, original);
    await saveBaseUrl(stubUrl);
    await closeContext(admin.context());
  }
});

test('"Wait for consent": nothing before the Klaro! "yes", one view after it, none after a withdrawal', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  const setWaitForConsent = async (on: boolean) => {
    await admin.goto(settingsPath);
    await admin.getByLabel('Wait for consent').setChecked(on);
    await saveSettings(admin);
  };
  try {
    await setWaitForConsent(true);
    await stub('DELETE', '/__stub/visits');
    const context = await anonymousContext(browser);
    const page = await context.newPage();
    // The views the page asked the stub to count, from its first request on: the tag sends as it
    // starts or when consent comes, never on a timer, so what a loaded page sent is all it sends.
    const views: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`${stubUrl}/v1/tracker/`)) views.push(request.url());
    });
    await addKlaroToEveryPage(page, drupalUrl);
    await page.goto('/');
    await expect(page.locator('script[data-api]')).toHaveAttribute('data-consent', '');
    expect(await page.content()).not.toContain('/v1/tracker/img/');
    await expect(acceptButton(page)).toBeVisible();
    expect(views).toEqual([]);

    await acceptButton(page).click();
    await expect.poll(async () => (await stubVisits()).length).toBe(1);
    expect((await stubVisits())[0]?.referrer).toBe(`${drupalUrl}/`);
    expect(views).toHaveLength(1);

    await withdrawInKlaro(page);
    await page.reload();
    await expect(page.locator('script[data-api]')).toHaveAttribute('data-consent', '');
    // Klaro! has read the saved "no" and applied it (its callback passed it to the tag).
    await page.waitForFunction(
      () =>
        (
          window as never as { klaro?: { getManager: () => { confirmed: boolean } } }
        ).klaro?.getManager().confirmed === true,
    );
    expect(views).toHaveLength(1);
    await closeContext(context);
    expect(await stubVisits()).toHaveLength(1);
  } finally {
    await setWaitForConsent(false);
    await closeContext(admin.context());
  }
});

test('the contact block delivers to the fixed recipient and keeps the text when sending fails', async ({
  browser,
}) => {
  await stub('DELETE', '/__stub/emails');
  const page = await visitorPage(browser);
  await page.goto('/');
  // The marker lets the fault below match this message only.
  const marker = `refused${Date.now()}`;
  const message = `Hello <script>alert(1)</script>\nHow much is it? ${marker}`;
  await fillContactForm(page, message);
  // The widget refuses posts within 3 s of its start as automated.
  await page.waitForTimeout(3200);

  // An address the service refuses is named beside its field, the text kept, nothing sent.
  await page.getByLabel('Your email address').fill('ana@shop.local');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByLabel('Your email address')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Message')).toHaveValue(message);
  expect(await stubEmails()).toHaveLength(0);
  await page.getByLabel('Your email address').fill('ann@example.com');

  // Only this message's send is refused, for good (400): a passing failure (5xx) would wait in
  // the outbox (outbox.spec.ts).
  await injectFault(marker, {
    method: 'POST',
    path_prefix: '/v1/email',
    status: 400,
    times: 1,
  });
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Not sent: the server had a problem')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue(message);
  await expect(page.getByLabel('Your email address')).toHaveValue('ann@example.com');
  expect(await stubEmails()).toHaveLength(0);

  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Thank you, your message was sent.')).toBeVisible();
  const emails = await stubEmails();
  expect(emails).toHaveLength(1);
  expect(emails[0]?.to).toBe('owner@example.com');
  expect(emails[0]?.replyto).toBe('ann@example.com');
  expect(emails[0]?.subject).toBe('[Sitebeam Test] Prices');
  expect(emails[0]?.content).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;<br>');
  await closeContext(page.context());
});

test('without JavaScript the contact form posts natively and comes back with thanks', async ({
  browser,
}) => {
  await stub('DELETE', '/__stub/emails');
  const context = await anonymousContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await fillContactForm(page, 'Sent without JavaScript.');
  // The form's ticket must be 3 s old, as it is for anyone who types a message.
  await page.waitForTimeout(3200);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page).toHaveURL(/[?&]sent=1$/);
  await expect(page.getByText('Thank you: your message has been sent.')).toBeVisible();
  const emails = await stubEmails();
  expect(emails).toHaveLength(1);
  expect(emails[0]?.content).toContain('Sent without JavaScript.');
  await closeContext(context);
});

test('without JavaScript a form sent too fast comes back with the text kept, then sends', async ({
  browser,
}) => {
  await stub('DELETE', '/__stub/emails');
  const page = await visitorPage(browser, { javaScriptEnabled: false });
  await page.goto('/');
  await fillContactForm(page, 'Typed in a hurry.');
  // The page's ticket dates from its rendering: on a busy machine, loading the page (php -S serves
  // one request at a time) and filling four fields can take the 3 s a ticket must age. This post
  // leaves with a ticket issued just before it instead, which the endpoint takes for a bot's.
  await page.route(
    (url) => url.pathname === '/sitebeam/contact',
    async (route) => {
      const fresh = await page.request.get('/sitebeam/contact');
      const { ticket } = (await fresh.json()) as { ticket: string };
      const form = new URLSearchParams(route.request().postData() ?? '');
      expect(form.get('ticket')).toMatch(/^\d+\./);
      form.set('ticket', ticket);
      await route.continue({ postData: form.toString() });
    },
    { times: 1 },
  );
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { name: 'Your message was not sent' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Please wait a few seconds');
  await expect(page.getByLabel('Your name')).toHaveValue('Ann Visitor');
  await expect(page.getByLabel('Your email address')).toHaveValue('ann@example.com');
  await expect(page.getByLabel('Subject')).toHaveValue('Prices');
  await expect(page.getByLabel('Message')).toHaveValue('Typed in a hurry.');
  expect(await stubEmails()).toHaveLength(0);

  await page.waitForTimeout(3200);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page).toHaveURL(`${drupalUrl}/?sent=1`);
  await expect(page.getByText('Thank you: your message has been sent.')).toBeVisible();
  expect((await stubEmails()).map((mail) => mail.content)).toEqual([
    expect.stringContaining('Typed in a hurry.'),
  ]);
  await closeContext(page.context());
});

test("the widget shows the site's own translation of a status text", async ({ browser }) => {
  const original = readFileSync(settingsPhp, 'utf8');
  const rateLimited = 'Not sent: too many messages. Please try again later.';
  const translated = 'Nicht gesendet: zu viele Nachrichten. Bitte später noch einmal versuchen.';
  const admin = await adminPage(browser);
  try {
    writeFileSync(
      settingsPhp,
      // With no room in the outbox, the API's 429 reaches the visitor as rate_limited.
      `${original}\n$settings['locale_custom_strings_en']['']['${rateLimited}'] = '${translated}';\n` +
        "$config['sitebeam.settings']['mail']['outbox']['max_mails'] = 0;\n",
    );
    // The block's markup is render-cached per language; a settings.php edit invalidates nothing.
    await clearCaches(admin);
    const page = await visitorPage(browser);
    await page.goto('/');
    await expect(page.locator('form[data-sitebeam-form]')).toHaveAttribute(
      'data-text-rate-limited',
      translated,
    );
    const marker = `limited${Date.now()}`;
    await fillContactForm(page, `Is anyone there? ${marker}`);
    await page.waitForTimeout(3200);
    await injectFault(marker, {
      method: 'POST',
      path_prefix: '/v1/email',
      status: 429,
      times: 1,
    });
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.locator('form[data-sitebeam-form]').getByRole('status')).toHaveText(
      translated,
    );
    await expect(page.getByLabel('Message')).toHaveValue(`Is anyone there? ${marker}`);
    await closeContext(page.context());
  } finally {
    writeFileSync(settingsPhp, original);
    await clearCaches(admin);
    await closeContext(admin.context());
  }
});

test("a signed-in visitor's form carries a CSRF token and sends", async ({ browser }) => {
  await stub('DELETE', '/__stub/emails');
  const page = await adminPage(browser);
  await page.goto('/');
  await expect(page.locator('form[data-sitebeam-form] input[name="form_token"]')).toHaveAttribute(
    'value',
    /.{20,}/,
  );
  await fillContactForm(page, 'Sent while signed in.');
  await page.waitForTimeout(3200);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Thank you, your message was sent.')).toBeVisible();
  expect((await stubEmails()).map((mail) => mail.to)).toEqual(['owner@example.com']);
  await closeContext(page.context());
});

test('site mail (a password reset) goes through the API', async ({ browser }) => {
  await stub('DELETE', '/__stub/emails');
  const page = await visitorPage(browser);
  await page.goto('/user/password');
  await page.getByLabel('Username or email address').fill('admin');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect.poll(async () => (await stubEmails()).length).toBe(1);
  const [mail] = await stubEmails();
  expect(mail?.to).toBe('admin@example.com');
  expect(mail?.from).toBe('site@example.com');
  expect(mail?.subject).toContain('Replacement login information');
  expect(mail?.content).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/user\/reset\/1\//);
  await closeContext(page.context());
});

test('the token was in none of the pages and answers the browser received', () => {
  expect(answersSeen.length).toBeGreaterThan(10);
  expect(tokenLeaks).toEqual([]);
});
