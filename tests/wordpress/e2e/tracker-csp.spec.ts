// The plugin's tracker on a page whose Content-Security-Policy lets images reach the instance but
// not fetch (the test site's `?sitebeam_test_csp=images`): each view is recorded once, by the pixel.
import { expect, type Request, test } from '@playwright/test';
import { eventually, site, startAndEndWithTheInstalledSite, stub } from './site.ts';

startAndEndWithTheInstalledSite();

test.beforeEach(async () => {
  await stub.reset();
});

test('under an image-only policy the first view and an SPA route are recorded once each, by the pixel', async ({
  page,
}) => {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(site.stubUrl)) sent.push(request);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto('/?sitebeam_test_csp=images&token=SECRET');
  const first = await eventually(stub.visits, (list) => list.length > 0);
  await page.evaluate(() => history.pushState(null, '', '/a-route/'));
  const both = await eventually(stub.visits, (list) => list.length > 1);
  // Every request the page made to the instance was answered: no other view is on its way.
  await Promise.all(sent.map((request) => request.response()));
  expect(first).toHaveLength(1);
  expect(both).toHaveLength(2);
  expect(await stub.visits()).toHaveLength(2);
  // The origin only, as the pixel's referrer policy says: neither the path nor the secret.
  expect(both.map((visit) => [visit.website, visit.referrer])).toEqual([
    [site.website, `${site.url}/`],
    [site.website, `${site.url}/`],
  ]);
  expect(sent.map((request) => new URL(request.url()).pathname)).toEqual([
    `/v1/tracker/img/${site.website}`,
    `/v1/tracker/img/${site.website}`,
  ]);
  expect(errors).toEqual([]);
});
