// What the owner sees of the outbox's delivery rules (issue #35, #38): a saved instance URL WordPress refuses is said
// on every admin page and in Site Health with its fix, and a mail then fails at once instead of waiting 72 hours;
// the plugins screen warns before a deactivation stops mail that waits, and activating the plugin again delivers
// it at the next cron run; the settings page says what the fallback to PHP's mailer does, off by default.
import { expect, test } from '@playwright/test';
import { logIn, site, startAndEndWithTheInstalledSite, stub, testSite } from './site.ts';

startAndEndWithTheInstalledSite();
test.describe.configure({ mode: 'serial' });

const marker = () => `d${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

test.beforeEach(async () => {
  await stub.reset();
  await testSite.reset();
});

test.afterEach(async () => {
  await testSite.activateSitebeam();
  await testSite.privateHosts(true);
  await testSite.emptyOutbox();
});

test('a saved instance URL WordPress refuses: an admin notice and a critical Site Health result give the fix, and mail fails at once', async ({
  page,
}) => {
  // The stub's URL, on a site that does not allow private hosts: WordPress refuses its port.
  await testSite.settings({ fallback: false });
  await testSite.privateHosts(false);
  const subject = `Order ${marker()}`;
  expect((await testSite.sendMail({ to: 'ann@example.com', subject, message: 'x' })).sent).toBe(
    false,
  );
  expect(await testSite.outbox(), 'refused for good: never kept').toEqual([]);
  const failed = (await testSite.state()).wp_mail_failed ?? [];
  expect(failed.at(-1)?.message).toContain('WordPress refuses to send to the instance URL');

  await logIn(page);
  await page.goto('/wp-admin/index.php');
  const notice = page.locator('.sitebeam-instance-url-notice');
  await expect(notice).toContainText(
    `WordPress refuses to send to the instance URL ${site.stubUrl}`,
  );
  await expect(notice).toContainText(
    "add define( 'SITEBEAM_ALLOW_PRIVATE_HOSTS', true ); to wp-config.php",
  );
  await expect(notice.getByRole('link', { name: 'Open the Sitebeam settings' })).toBeVisible();

  await page.goto('/wp-admin/site-health.php');
  await expect(page.locator('#health-check-issues-critical')).toContainText(
    'WordPress refuses to send to the Sitebeam instance URL',
    { timeout: 30_000 },
  );

  await testSite.privateHosts(true);
  await page.goto('/wp-admin/index.php');
  await expect(page.locator('.sitebeam-instance-url-notice')).toHaveCount(0);
});

test('the plugins screen warns before a deactivation stops the mail that waits; activating again delivers it at the next cron run', async ({
  page,
}) => {
  const subject = `Invoice ${marker()}`;
  await testSite.keepInOutbox('ann@example.com', subject);
  await testSite.settings({ api_url: site.stubUrl });

  await logIn(page);
  await page.goto('/wp-admin/plugins.php');
  const row = page.locator('tr[data-plugin="sitebeam/sitebeam.php"]');
  const warning = page.locator('tr.sitebeam-deactivation-warning');
  await expect(warning).toContainText('1 mail waits in the Sitebeam outbox for the instance.');
  await expect(warning).toContainText('Deactivating Sitebeam stops its delivery');

  await row.locator('.deactivate a').click();
  await expect(page.locator('#message')).toContainText('Plugin deactivated.');
  await expect(warning).toHaveCount(0);
  await testSite.cron();
  expect(await stub.messages(), 'nothing sent while the plugin is off').toEqual([]);

  await row.locator('.activate a').click();
  await expect(page.locator('#message')).toContainText('Plugin activated.');
  await testSite.cron();
  const messages = await stub.messages();
  expect(messages.map((message) => message.subject)).toEqual([subject]);
  expect(await testSite.outbox()).toEqual([]);
});

test('the settings page says what the fallback to PHP’s mailer does, and it is off on a new site', async ({
  page,
}) => {
  await logIn(page);
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  const fallback = page.locator('#sitebeam-fallback');
  await expect(fallback).not.toBeChecked();
  const label = page.locator('label', { has: fallback });
  await expect(label).toContainText('Off by default.');
  await expect(label).toContainText('PHP’s mail() on this server');
  await expect(label).toContainText('without Sitebeam');
});
