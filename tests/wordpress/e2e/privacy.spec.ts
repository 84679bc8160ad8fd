import { execFileSync } from 'node:child_process';
import { expect, type Page, test } from '@playwright/test';
import { logIn, site, startAndEndWithTheInstalledSite, stub, testSite } from './site.ts';

startAndEndWithTheInstalledSite();

// WordPress's own privacy tools, driven as an administrator does: the send log is exported and erased
// per address (Tools → Export / Erase Personal Data), and the policy guide shows Sitebeam's text.
// Each test has its own address and subjects: WordPress keeps one request per address and action, and the
// send log keeps the other tests' sends.
let run = '';
let address = '';
const subjects = () => ({
  order: `Your order ${run}`,
  invoice: `Your invoice ${run}`,
  other: `Not theirs ${run}`,
});

test.beforeEach(async () => {
  const { testId, repeatEachIndex, retry } = test.info();
  run = `${testId.slice(-12)}-${repeatEachIndex}-${retry}`;
  address = `privacy-${run}@example.com`;
  await stub.reset();
  await stub.setEmailApi(true);
  for (const subject of [subjects().order, subjects().invoice]) {
    expect((await testSite.sendMail({ to: address, subject, message: 'Hello' })).sent).toBe(true);
  }
  expect(
    (
      await testSite.sendMail({
        to: 'someone-else@example.com',
        subject: subjects().other,
        message: 'Hi',
      })
    ).sent,
  ).toBe(true);
});

/** Files a confirmed request for the address on one of the privacy tools and shows its row. */
async function confirmedRequest(page: Page, tool: 'export' | 'erase') {
  await page.goto(`/wp-admin/${tool}-personal-data.php`);
  await page.fill('#username_or_email_for_privacy_request', address);
  await page.uncheck('#send_confirmation_email');
  // The row's Download / Erase buttons work only once WordPress's privacy-tools script has bound them,
  // at the new page's load: clicked before it (a loaded machine: the second CI run), nothing happened.
  // The listed page has loaded already, so the next load event is the new page's.
  await Promise.all([page.waitForEvent('load'), page.click('#submit')]);
  const row = page.locator('tr', { hasText: address }).first();
  await row.hover();
  return row;
}

test('Tools → Export Personal Data includes the sends to that address from the send log', async ({
  page,
}, testInfo) => {
  await logIn(page);
  const row = await confirmedRequest(page, 'export');
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download personal data' }).first().click();
  const file = testInfo.outputPath('export.zip');
  await (await download).saveAs(file);
  const html = execFileSync('unzip', ['-p', file, '*.html']).toString();
  expect(html).toContain('Sitebeam send log');
  expect(html).toContain(subjects().order);
  expect(html).toContain(subjects().invoice);
  expect(html).not.toContain(subjects().other);
});

test('Tools → Erase Personal Data removes the sends to that address and keeps the others', async ({
  page,
}) => {
  await logIn(page);
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  await expect(page.locator('.sitebeam-log')).toContainText(address);
  const row = await confirmedRequest(page, 'erase');
  await row
    .getByRole('button', { name: /erase personal data/i })
    .first()
    .click();
  // Each eraser is an admin-ajax round trip, then WordPress mails the requester through the API: on
  // two loaded cores that takes longer than the 10 s an expectation gets by default.
  await expect(page.getByText(/personal data found for this user was erased/i)).toBeVisible({
    timeout: 30_000,
  });
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  // WordPress then mails the requester that the erasure is done: that new send is logged, the old ones are gone.
  await expect(page.locator('.sitebeam-log')).toContainText(subjects().other);
  await expect(page.locator('.sitebeam-log')).not.toContainText(subjects().order);
  await expect(page.locator('.sitebeam-log')).not.toContainText(subjects().invoice);
});

test('the privacy policy guide suggests what Sitebeam sends, naming the instance', async ({
  page,
}) => {
  await logIn(page);
  await page.goto('/wp-admin/options-privacy.php?tab=policyguide');
  const section = page.locator('.privacy-settings-accordion-panel, .policy-text', {
    hasText: 'which page you opened',
  });
  await expect(section.first()).toContainText(new URL(site.stubUrl).hostname);
  await expect(page.getByRole('button', { name: /Sitebeam/ }).first()).toBeVisible();
});
