import { expect, test } from '@playwright/test';
import {
  eventually,
  logIn,
  site,
  startAndEndWithTheInstalledSite,
  stub,
  testSite,
} from './site.ts';

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

test.describe('a page address with a secret in its query', () => {
  const query = '?token=SECRET&utm_source=x';

  test.afterEach(() => testSite.reset());

  test('is recorded without the secret, with JavaScript and without', async ({ browser, page }) => {
    await page.goto(`/${query}`);
    await expect(page.locator('script#sitebeam-tracker-js')).not.toHaveAttribute(
      'data-keep-query',
      /./,
    );
    const viewed = await eventually(stub.visits, (list) => list.length > 0);
    expect(viewed.map((visit) => visit.referrer)).toEqual([`${site.url}/?utm_source=x`]);

    await stub.reset();
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.url });
    const noscript = await context.newPage();
    await noscript.goto(`/${query}`);
    const pixel = await eventually(stub.visits, (list) => list.length > 0);
    // An image's referrer cannot drop some parameters: the site's origin alone.
    expect(pixel.map((visit) => visit.referrer)).toEqual([`${site.url}/`]);
    await context.close();
  });

  test('keeps what the owner keeps: the whole address with *', async ({ browser, page }) => {
    await testSite.settings({ keep_query: '*' });
    await page.goto(`/${query}#part`);
    await expect(page.locator('script#sitebeam-tracker-js')).toHaveAttribute(
      'data-keep-query',
      '*',
    );
    const viewed = await eventually(stub.visits, (list) => list.length > 0);
    expect(viewed.map((visit) => visit.referrer)).toEqual([`${site.url}/${query}`]);

    await stub.reset();
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.url });
    const noscript = await context.newPage();
    await noscript.goto(`/${query}`);
    const pixel = await eventually(stub.visits, (list) => list.length > 0);
    expect(pixel.map((visit) => visit.referrer)).toEqual([`${site.url}/${query}`]);
    await context.close();
  });
});
