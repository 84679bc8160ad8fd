import { expect, test } from '@playwright/test';
import {
  eventually,
  logIn,
  site,
  startAndEndWithTheInstalledSite,
  stub,
  watchForToken,
} from './site.ts';

startAndEndWithTheInstalledSite();

const settingsPage = '/wp-admin/options-general.php?page=sitebeam';

test.beforeEach(async () => {
  await stub.reset();
  await stub.setEmailApi(true);
});

test('the settings page saves, never shows the token, and tests the connection', async ({
  page,
}) => {
  const tokenChecks = watchForToken(page);
  await logIn(page);
  await page.goto(settingsPage);
  await page.fill('#sitebeam-api_url', `${site.stubUrl}/`);
  await page.fill('#sitebeam-api_token', site.token);
  await page.fill('#sitebeam-website', site.website);
  await page.click('#submit');
  await expect(page.locator('#setting-error-settings_updated')).toContainText('Settings saved');
  await expect(page.locator('#sitebeam-api_url')).toHaveValue(site.stubUrl);
  await expect(page.locator('#sitebeam-api_token')).toHaveValue('');
  await expect(page.locator('#sitebeam-api_token')).toHaveAttribute(
    'placeholder',
    'A token is stored',
  );

  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.locator('.sitebeam-notice')).toContainText(`Connected to ${site.stubUrl}`);

  await page.getByRole('button', { name: 'Send test email' }).click();
  await expect(page.locator('.sitebeam-notice')).toContainText(
    `Test email sent to ${site.adminEmail}`,
  );
  const messages = await eventually(stub.messages, (list) => list.length > 0);
  expect(messages.map((message) => message.to)).toEqual([site.adminEmail]);
  await expect(page.locator('.sitebeam-log')).toContainText('Sitebeam test email');

  expect(await tokenChecks()).toBeGreaterThan(3);
});

test('connection problems are explained in words', async ({ page }) => {
  await logIn(page);
  await page.goto(settingsPage);
  const notice = page.locator('.sitebeam-notice');

  await stub.setEmailApi(false);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toContainText('Email sending is not enabled for this account');
  await expect(notice).toContainText('support or administrator');
  await stub.setEmailApi(true);

  await page.fill('#sitebeam-api_token', 'wrong-token');
  await page.click('#submit');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toContainText('the token is wrong');

  await page.fill('#sitebeam-api_token', site.token);
  await page.fill('#sitebeam-api_url', 'http://api.example.test');
  await page.click('#submit');
  await expect(page.locator('#setting-error-sitebeam_api_url')).toContainText(
    'must start with https://',
  );
  await expect(page.locator('#sitebeam-api_url')).toHaveValue(site.stubUrl);

  await page.fill('#sitebeam-api_url', 'http://127.0.0.1:9');
  await page.click('#submit');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toContainText('cannot be reached');

  await page.fill('#sitebeam-api_url', site.stubUrl);
  await page.click('#submit');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toContainText('Connected to');
});

test('the kept query parameters and the daily chat limit save, and a wrong parameter name is named', async ({
  page,
}) => {
  await logIn(page);
  await page.goto(settingsPage);
  await page.getByLabel('Keep query parameters').fill('ref, lang');
  await page.getByLabel('Daily chat limit').fill('250');
  await page.click('#submit');
  await expect(page.locator('#setting-error-settings_updated')).toContainText('Settings saved');
  await expect(page.getByLabel('Keep query parameters')).toHaveValue('ref,lang');
  await expect(page.getByLabel('Daily chat limit')).toHaveValue('250');

  await page.getByLabel('Keep query parameters').fill('ref, token=x');
  await page.getByLabel('Daily chat limit').fill('');
  await page.click('#submit');
  await expect(page.locator('#setting-error-sitebeam_keep_query')).toContainText(
    '“token=x” is not a query parameter name',
  );
  await expect(page.getByLabel('Keep query parameters')).toHaveValue('ref,lang');
  // Empty is the default, 500 a day; no limit is 0, typed on purpose.
  await expect(page.getByLabel('Daily chat limit')).toHaveValue('500');
  await expect(page.locator('.sitebeam-chat-today')).toContainText(
    /Today \(UTC\): \d+ messages? of 500\./,
  );
  await page.getByLabel('Daily chat limit').fill('0');
  await page.click('#submit');
  await expect(page.getByLabel('Daily chat limit')).toHaveValue('0');
  await expect(page.locator('.sitebeam-chat-today')).toContainText('no limit');
  await page.getByLabel('Daily chat limit').fill('');
  await page.click('#submit');
});
