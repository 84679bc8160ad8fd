// The outbox in Chromium: the lost-password page during an outage, Tools → Sitebeam outbox with its Send now and
// Delete, the admin notice and the Site Health test when mail has waited more than an hour, and the contact form's
// "received" answer. The screens themselves in detail: outbox-screens.spec.ts. Every fault matches this test's own mail only (body_contains a marker).
import { expect, type Page, test } from '@playwright/test';
import {
  fillContactForm,
  logIn,
  site,
  startAndEndWithTheInstalledSite,
  stub,
  testSite,
} from './site.ts';

startAndEndWithTheInstalledSite();
test.describe.configure({ mode: 'serial' });

const marker = () => `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

test.beforeEach(async () => {
  await stub.reset();
  await testSite.reset(); // the installed settings (the instance's URL among them), and an empty outbox
  await testSite.settings({ route_mail: true, fallback: false });
});

test.afterEach(async () => {
  await stub.clearFaults();
  await testSite.emptyOutbox();
});

function outboxRow(page: Page, recipient: string) {
  return page.locator('#the-list tr', { hasText: recipient });
}

const emptyOutbox = (page: Page) => page.locator('#the-list .no-items');

test('during an outage the lost-password page says the mail was sent, and Send now delivers it once the instance is back', async ({
  page,
}) => {
  const login = marker();
  const email = `${login}@example.com`;
  await testSite.user(login, email);
  await stub.failEmail(login, { status: 503, retry_after: 120 });

  await page.goto('/wp-login.php?action=lostpassword');
  await page.fill('#user_login', login);
  await page.click('#wp-submit');
  await expect(page).toHaveURL(/checkemail=confirm/);
  await expect(page.locator('body')).toContainText('Check your email for the confirmation link');
  expect(await stub.messages()).toEqual([]);
  expect((await testSite.outbox()).map((row) => row.recipient)).toEqual([email]);

  await stub.clearFaults();
  await logIn(page);
  await page.goto('/wp-admin/tools.php?page=sitebeam-outbox');
  const row = outboxRow(page, email);
  await expect(row).toContainText('Password Reset');
  await expect(row).toContainText('Waiting');
  await expect(row.locator('td').nth(3)).toHaveText('1');
  await expect(row).toContainText('HTTP 503');
  await expect(row).toContainText(/In \d+ min/);

  await row.hover(); // WordPress shows a row's actions while the pointer is on it
  await row.getByRole('link', { name: 'Send now' }).click();
  await expect(page.locator('.sitebeam-notice')).toContainText(`Password Reset” to ${email}.`);
  await expect(emptyOutbox(page)).toBeVisible();
  const messages = await stub.messages();
  expect(messages.map((message) => message.to)).toEqual([email]);
  expect(messages[0]?.content).toContain('action=rp');
});

test('mail waiting over an hour raises an admin notice and a critical Site Health result; Delete removes it', async ({
  page,
}) => {
  const subject = `Order ${marker()}`;
  await testSite.keepInOutbox('late@example.com', subject);
  await testSite.passTime(2 * 3600 + 60, false);

  await logIn(page);
  await page.goto('/wp-admin/index.php');
  await expect(page.locator('.sitebeam-outbox-notice')).toContainText('mail has waited 2 hours');

  await page.goto('/wp-admin/site-health.php');
  await expect(page.locator('#health-check-issues-critical')).toContainText(
    'Site mail has waited 2 hours for the Sitebeam instance',
    { timeout: 30_000 },
  );

  await page.goto('/wp-admin/tools.php?page=sitebeam-outbox');
  const row = outboxRow(page, 'late@example.com');
  await expect(row).toContainText(subject);
  await expect(row).toContainText('cannot be reached');
  await row.hover();
  await row.getByRole('link', { name: 'Delete…' }).click();
  await page.getByRole('button', { name: 'Delete 1 mail' }).click();
  await expect(page.locator('.sitebeam-notice')).toContainText('1 mail deleted from the outbox');
  await expect(emptyOutbox(page)).toBeVisible();
  await expect(page.locator('.sitebeam-outbox-notice')).toHaveCount(0);
  expect(await testSite.outbox()).toEqual([]);
});

test('Send now without its nonce is refused, and a subscriber has no outbox screen', async ({
  page,
  browser,
}) => {
  await logIn(page);
  const forged = await page.request.post('/wp-admin/admin-post.php', {
    form: { action: 'sitebeam_outbox', do: 'send', id: '0' },
  });
  expect(forged.status()).toBe(403);

  const login = marker();
  await testSite.user(login, `${login}@example.com`, 'subscriber-password');
  const context = await browser.newContext();
  const subscriber = await context.newPage();
  await logIn(subscriber, login, 'subscriber-password');
  const answer = await subscriber.goto('/wp-admin/tools.php?page=sitebeam-outbox');
  expect(answer?.status()).toBe(403);
  await expect(subscriber.locator('.sitebeam-outbox')).toHaveCount(0);
  const refused = await subscriber.request.post('/wp-admin/admin-post.php', {
    form: { action: 'sitebeam_outbox', do: 'send', id: '0' },
  });
  expect(refused.status()).toBe(403);
  await context.close();
});

test('a contact message that meets a 503 is received (the visitor is thanked) and sent by cron once the instance is back', async ({
  page,
}) => {
  const subject = `Question ${marker()}`;
  const url = await testSite.page(`Contact ${subject}`, '[sitebeam_contact]');
  await page.goto(url);
  const form = await fillContactForm(page, subject);
  await stub.failEmail(subject, { status: 503, retry_after: 60 });
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url().includes('/sitebeam/v1/contact')),
    form.locator('button[type=submit]').click(),
  ]);
  expect(answer.status()).toBe(202);
  expect(await answer.json()).toMatchObject({ status: 'ok', queued: true });
  await expect(form.locator('[data-sitebeam-status]')).toHaveText(
    'Thanks, we received your message.',
  );
  const kept = await testSite.outbox();
  expect(kept.map((row) => row.subject)).toEqual([expect.stringContaining(subject)]);
  expect(kept[0]?.last_error).toContain('HTTP 503');

  await stub.clearFaults();
  expect((await testSite.passTime(0, true)).sent).toBe(1);
  const messages = (await stub.messages()).filter((message) => message.subject.includes(subject));
  expect(messages.map((message) => message.to)).toEqual([site.contactRecipient]);
  expect(messages[0]?.content).toContain('Are you open on Sunday?');
});
