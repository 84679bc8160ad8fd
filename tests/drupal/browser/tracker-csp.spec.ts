// The module's tracker on a page whose Content-Security-Policy lets images reach the instance but
// not fetch (the test module's `?sitebeam_test_csp=images`): each view is recorded once, by the pixel.
import { expect, type Request, test } from '@playwright/test';
import {
  adminPage,
  anonymousContext,
  drupalUrl,
  saveStubAddress,
  stub,
  stubUrl,
  stubVisits,
} from './site.ts';

test('under an image-only policy the first view and an SPA route are recorded once each, by the pixel', async ({
  browser,
}) => {
  // The stub's address saved, whichever file ran before.
  const admin = await adminPage(browser);
  await saveStubAddress(admin);
  await admin.context().close();
  await stub('DELETE', '/__stub/visits');
  const context = await anonymousContext(browser);
  const page = await context.newPage();
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(stubUrl)) sent.push(request);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto('/user/login?sitebeam_test_csp=images&token=SECRET');
  await expect.poll(async () => (await stubVisits()).length).toBe(1);
  await page.evaluate(() => history.pushState(null, '', '/a-route'));
  await expect.poll(async () => (await stubVisits()).length).toBe(2);
  // Every request the page made to the instance was answered: no other view is on its way.
  await Promise.all(sent.map((request) => request.response()));
  const visits = await stubVisits();
  // The origin only, as the pixel's referrer policy says: neither the path nor the secret.
  expect(visits.map((visit) => [visit.website, visit.referrer])).toEqual([
    ['127.0.0.1', `${drupalUrl}/`],
    ['127.0.0.1', `${drupalUrl}/`],
  ]);
  expect(sent.map((request) => new URL(request.url()).pathname)).toEqual([
    '/v1/tracker/img/127.0.0.1',
    '/v1/tracker/img/127.0.0.1',
  ]);
  expect(errors).toEqual([]);
  await context.close();
});
