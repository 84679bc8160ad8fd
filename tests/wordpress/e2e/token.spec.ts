import { expect, test } from '@playwright/test';
import {
  editorLoadTimeout,
  logIn,
  site,
  startAndEndWithTheInstalledSite,
  watchForToken,
} from './site.ts';

startAndEndWithTheInstalledSite();

test('the API token is in no front-end or admin page', async ({ page, browser }) => {
  const visitor = await browser.newContext({ baseURL: site.url });
  const visitorPage = await visitor.newPage();
  const visitorChecks = watchForToken(visitorPage);
  for (const path of ['/', '/?s=hello', '/wp-login.php', '/wp-json/', '/feed/'])
    await visitorPage.goto(path);
  expect(await visitorChecks()).toBeGreaterThanOrEqual(4);
  await visitor.close();

  const adminChecks = watchForToken(page);
  await logIn(page);
  for (const path of [
    '/',
    '/wp-admin/',
    '/wp-admin/plugins.php',
    '/wp-admin/options-general.php?page=sitebeam',
    '/wp-admin/post-new.php',
  ]) {
    await page.goto(path);
  }
  // The block editor's own load (several megabytes of scripts from 6.9 on) is given the editor test's allowance.
  await expect(page.locator('.edit-post-header')).toBeVisible({ timeout: editorLoadTimeout });
  expect(await adminChecks()).toBeGreaterThanOrEqual(5);
});
