import { expect, test } from '@playwright/test';
import { eventually, logIn, site, startAndEndWithTheInstalledSite, stub } from './site.ts';

startAndEndWithTheInstalledSite();

test.beforeEach(async () => {
  await stub.reset();
});

test('a visitor on the front page is recorded under the configured website', async ({ page }) => {
  await page.goto('/');
  const script = page.locator('script#sitebeam-tracker-js');
  await expect(script).toHaveAttribute('defer', '');
  await expect(script).toHaveAttribute('data-website', site.website);
  const visits = await eventually(stub.visits, (list) => list.length > 0);
  expect(visits).toHaveLength(1);
  expect(visits[0]?.website).toBe(site.website);
  expect(visits[0]?.referrer).toBe(`${site.url}/`);
});

test('an administrator is not tracked', async ({ page }) => {
  await logIn(page);
  await page.goto('/');
  await expect(page.locator('#wpadminbar')).toBeVisible();
  await expect(page.locator('script#sitebeam-tracker-js')).toHaveCount(0);
  await expect(page.locator('noscript img[src*="/v1/tracker/img/"]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(await stub.visits()).toEqual([]);
});

test('without JavaScript the noscript pixel records the visit', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.url });
  const page = await context.newPage();
  await page.goto('/');
  const visits = await eventually(stub.visits, (list) => list.length > 0);
  expect(visits.map((visit) => visit.website)).toEqual([site.website]);
  await context.close();
});
