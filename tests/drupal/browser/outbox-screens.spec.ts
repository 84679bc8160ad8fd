// The owner's outbox screens on a real site, in Claro: a give-up raised on the status report and
// on the outbox, 500 waiting mails paged and sorted, a phone's width, one mail's page, Send now,
// Delete's and a bulk action's confirmation, axe on each screen. Page loads are this layer's cost:
// the admin signs in once, and what a kernel test proves (each filter, sort and bulk action,
// access, escaping, every word) is not proved again here (OutboxScreensTest).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContextOptions, expect, type Page } from '@playwright/test';
import { axeViolations } from '../../support/axe.ts';
import { site } from './outbox-site.ts';
import { adminPage, drupalUrl, newContext, stub, stubEmails, stubUrl, test } from './site.ts';

const outbox = '/admin/reports/sitebeam-outbox';

/**
 * SITEBEAM_SCREENSHOTS=folder saves each screen there, for the module's README (run by hand;
 * CI leaves it unset).
 */
async function screenshot(page: Page, name: string, height?: number): Promise<void> {
  const folder = process.env.SITEBEAM_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  // A desktop 1024 px wide, the first `height` px of the page: each file stays under 150 KB.
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const width = Math.min(size.width, 1024);
  await page.setViewportSize({ width, height: size.height });
  const clip = height ? { x: 0, y: 0, width, height } : undefined;
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: Boolean(height), clip });
  await page.setViewportSize(size);
}

/**
 * Axe on the page's content, less core's own parts and their known findings: Claro's toolbar
 * (landmark-unique, region), its pager (an <li role="presentation"> in a list, an h4 after the h1)
 * and its messages (role="contentinfo" inside main), wherever a Drupal page shows them.
 */
async function ourViolations(page: Page) {
  return axeViolations(page, {
    include: [['main']],
    exclude: [['.pager'], ['[data-drupal-messages]']],
  });
}

/** How far the page is wider than the window: above 0, it scrolls sideways. */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

const marker = `screens${randomBytes(4).toString('hex')}`;
const failing = `${marker}given`;
let signedIn: BrowserContextOptions['storageState'];

/** A page of the admin, signed in once for the spec. */
async function ownerPage(browser: Browser): Promise<Page> {
  const context = await newContext(browser, { baseURL: drupalUrl, storageState: signedIn });
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  await site('route', 'on', stubUrl);
  // One mail meets a 503, waits, and is given up once past its lifetime; 500 more wait.
  await stub('PUT', '/__stub/faults', {
    faults: [{ method: 'POST', path_prefix: '/v1/email', body_contains: failing, status: 503 }],
  });
  expect((await site('send', '1', failing)).results).toEqual([true]);
  await site('expire', failing);
  await site('deliver');
  await stub('DELETE', '/__stub/faults');
  await site('fill', '500', marker);
  const page = await adminPage(browser);
  signedIn = await page.context().storageState();
  await page.context().close();
});

test.afterAll(async () => {
  await site('clear', marker);
  await site('route', 'off');
});

test('a give-up on the status report and the outbox; 500 mails paged and sorted; a phone; one mail', async ({
  browser,
}) => {
  const page = await ownerPage(browser);
  await page.goto('/admin/reports/status');
  // Claro groups the lines by severity: this one is an error.
  const line = page
    .locator('details')
    .filter({ hasText: 'Errors found' })
    .locator('.system-status-report__row')
    .filter({ has: page.getByRole('button', { name: 'Sitebeam outbox', exact: true }) });
  await expect(line).toContainText('1 mail not delivered');
  await expect(line).toContainText('the instance refused mail for good, or mail was given up');
  await expect(line.getByRole('link', { name: 'The outbox' })).toHaveAttribute(
    'href',
    `${outbox}?state=failed`,
  );
  await line.scrollIntoViewIfNeeded();
  await screenshot(page, 'status-report');

  await page.goto(outbox);
  await expect(page.locator('.sitebeam-outbox-status')).toContainText(
    '500 mails waiting · 1 mail not delivered · next try in',
  );
  await expect(page.getByRole('link', { name: 'Try now' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Test connection' })).toBeVisible();
  await expect(page.locator('.messages--error')).toContainText('1 mail was not delivered since');
  await expect(page.getByRole('link', { name: 'All (501)' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('link', { name: 'Waiting (500)' })).toBeVisible();
  await expect(page.getByText('1–20 of 501')).toBeVisible();
  // Oldest first: the 500 were queued before the mail given up.
  const rows = page.locator('tr[data-sitebeam-outbox-id]');
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText(`${marker} 001`);
  await expect(rows.first()).toContainText('the instance is busy (HTTP 503)');
  await expect(rows.first()).not.toContainText('model_loading');
  expect(await ourViolations(page), 'the outbox').toEqual([]);
  await screenshot(page, 'outbox', 1000);

  await page.getByRole('link', { name: 'Next page' }).click();
  await expect(page.getByText('21–40 of 501')).toBeVisible();
  await expect(rows.first()).toContainText(`${marker} 021`);
  await page.getByRole('link', { name: 'Last page' }).click();
  await expect(page.getByText('501–501 of 501')).toBeVisible();
  await expect(rows.first()).toContainText(failing);
  // Newest first, the pager kept.
  await page
    .getByRole('columnheader', { name: /Queued/ })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(/sort=desc/);
  await expect(rows.first()).toContainText(`${marker} 001`);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${outbox}?state=failed`);
  await expect(page.getByText('1–1 of 1')).toBeVisible();
  // Core's toolbar opens its tray over the page on a phone: closed, as an owner would.
  const manage = page.locator('#toolbar-item-administration');
  if ((await manage.getAttribute('class'))?.includes('is-active')) await manage.click();
  await expect(page.locator('#toolbar-item-administration-tray')).toBeHidden();
  expect(await overflow(page), 'the outbox at 390 px').toBeLessThanOrEqual(0);
  await screenshot(page, 'outbox-390');

  await page.getByRole('link', { name: `${failing} 1` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    `Mail to to1@example.com: ${failing} 1`,
  );
  expect(await overflow(page), 'one mail at 390 px').toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.locator('.messages--warning')).toContainText('may hold a password-reset link');
  await expect(page.locator('.sitebeam-outbox-mail')).toContainText('first.csv');
  await expect(page.locator('.sitebeam-outbox-body')).toContainText(`Mail 1 of ${failing}`);
  await expect(page.locator('.sitebeam-outbox-tries')).toContainText('HTTP 503');
  expect(await ourViolations(page), 'one mail').toEqual([]);
  await screenshot(page, 'mail', 1300);
  await page.context().close();
});

test('Send now sends a later row; Delete and Delete all not delivered ask first', async ({
  browser,
}) => {
  const page = await ownerPage(browser);
  await page.goto(outbox);
  // The first two wait for their next try; the third goes now, and only it.
  const third = page.locator('tr[data-sitebeam-outbox-id]').filter({ hasText: `${marker} 003` });
  const send = third.getByRole('link', { name: 'Send now' });
  const href = (await send.getAttribute('href')) ?? '';
  expect(href).toMatch(/\/send\?token=/);
  expect((await page.context().request.get(href.replace(/\?token=.*/, ''))).status()).toBe(403);
  await send.click();
  await expect(page.locator('.messages--status')).toContainText(
    `The mail to fill003@example.com (${marker} 003) was delivered.`,
  );
  expect((await stubEmails()).filter((mail) => mail.subject.startsWith(`${marker} `))).toEqual([
    expect.objectContaining({ to: 'fill003@example.com', subject: `${marker} 003` }),
  ]);

  const second = page.locator('tr[data-sitebeam-outbox-id]').filter({ hasText: `${marker} 002` });
  await second.getByRole('button', { name: 'List additional actions' }).click();
  await second.getByRole('link', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    `Delete the mail to fill002@example.com (${marker} 002)?`,
  );
  expect(await ourViolations(page), 'Delete’s confirmation').toEqual([]);
  await screenshot(page, 'delete');
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('.messages--status')).toContainText(
    `The mail to fill002@example.com (${marker} 002) was deleted; it will not be sent.`,
  );
  await expect(second).toHaveCount(0);

  await page.getByRole('link', { name: 'Delete all not delivered' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    'Delete the mail that was not delivered?',
  );
  expect(await ourViolations(page), 'a bulk action’s confirmation').toEqual([]);
  await screenshot(page, 'bulk');
  await page.getByRole('button', { name: 'Delete 1 mail' }).click();
  await expect(page.locator('.messages--status')).toContainText(
    '1 mail was deleted; it will not be sent.',
  );
  await expect(page.getByRole('link', { name: 'Not delivered (0)' })).toBeVisible();
  await expect(page.locator('.messages--error')).toHaveCount(0);
  await page.context().close();
});
