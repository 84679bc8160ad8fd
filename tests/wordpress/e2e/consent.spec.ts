// The tracker waits for consent: the "Wait for consent" setting with a banner calling sitebeam.consent(),
// and the WP Consent API (installed from $SITEBEAM_PLATFORMS) with its `statistics` category.
import { expect, type Page, test } from '@playwright/test';
import { eventually, site, startAndEndWithTheInstalledSite, stub, testSite } from './site.ts';

startAndEndWithTheInstalledSite();

test.beforeEach(async () => {
  await testSite.reset();
  await stub.reset();
});

/** Waits until the page is idle, so a view that would be sent has reached the stub. */
async function expectVisits(page: Page, count: number) {
  await page.waitForLoadState('networkidle');
  const visits = await eventually(stub.visits, (list) => list.length >= count);
  expect(visits).toHaveLength(count);
}

test('"Wait for consent": nothing, not even the noscript pixel, until the banner calls sitebeam.consent(true)', async ({
  page,
}) => {
  await testSite.settings({ wait_for_consent: true });
  await page.goto('/');
  await expect(page.locator('script#sitebeam-tracker-js')).toHaveAttribute('data-consent', '');
  await expect(page.locator('noscript img[src*="/v1/tracker/img/"]')).toHaveCount(0);
  await expectVisits(page, 0);
  await page.evaluate(() =>
    (window as never as { sitebeam: { consent: (given: boolean) => void } }).sitebeam.consent(true),
  );
  await expectVisits(page, 1);
});

test('with the WP Consent API, the tag waits for statistics consent, given and withdrawn in the page', async ({
  page,
}) => {
  test.skip(
    !(await testSite.consentApi(true)),
    'SKIPPED: wp-consent-api-2.0.1.tar.xz is not in $SITEBEAM_PLATFORMS',
  );
  const setConsent = (value: 'allow' | 'deny') =>
    page.evaluate(
      (given) =>
        (window as never as { wp_set_consent: (c: string, v: string) => void }).wp_set_consent(
          'statistics',
          given,
        ),
      value,
    );
  await page.goto('/');
  await expect(page.locator('script#sitebeam-tracker-js')).toHaveAttribute('data-consent', '');
  await expect(page.locator('noscript img[src*="/v1/tracker/img/"]')).toHaveCount(0);
  await expectVisits(page, 0);

  await setConsent('allow');
  await expectVisits(page, 1);
  // The next page knows the visitor's choice from the API's cookie.
  await page.goto('/?p=1');
  await expectVisits(page, 2);

  await setConsent('deny');
  await page.evaluate(() => history.pushState({}, '', '/withdrawn'));
  await page.goto('/');
  await expectVisits(page, 2);
  const visits = await stub.visits();
  expect(visits.map((visit) => visit.website)).toEqual([site.website, site.website]);
});
