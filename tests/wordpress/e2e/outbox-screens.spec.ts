// Tools → Sitebeam outbox as an owner uses it, in Chromium (issue #36): the status line, views and counts, the pager
// over 500 mails, Screen Options, search and sorting, bulk Send now and Delete, Delete's question (without
// JavaScript too), Send again after a refusal, the single-mail view, the notice and Site Health after a give-up, a
// 390 px phone, and axe on each screen. Rows are put straight into the table (testSite.outboxRows); every fault
// matches this test's own mail only (body_contains a marker).
//
// With SITEBEAM_WP_SCREENSHOTS set to a folder, the tests also save the README's screenshots there (1000×700,
// screenshot-N.png as readme.txt numbers them; docs/screenshots/wordpress/ holds the ones the README shows).
import { type Browser, type Cookie, expect, type Locator, type Page, test } from '@playwright/test';
import { axeViolations } from '../../support/axe.ts';
import { fillContactForm, logIn, startAndEndWithTheInstalledSite, stub, testSite } from './site.ts';

startAndEndWithTheInstalledSite();
test.describe.configure({ mode: 'serial' });

const outbox = '/wp-admin/tools.php?page=sitebeam-outbox';
const marker = () => `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const now = () => Math.floor(Date.now() / 1000);

test.beforeEach(async () => {
  await stub.reset();
  await testSite.reset();
  await testSite.settings({ route_mail: true, fallback: false });
});

test.afterEach(async () => {
  await stub.clearFaults();
  await testSite.emptyOutbox();
});

const range = (page: Page) => page.locator('.tablenav.top .displaying-num');
const rows = (page: Page) => page.locator('#the-list tr');
const row = (page: Page, text: string) => page.locator('#the-list tr', { hasText: text });
const notice = (page: Page) => page.locator('.sitebeam-notice p');

/** Clicks a row action (WordPress shows them while the pointer is on the row, as a person uses them). */
async function rowAction(page: Page, text: string, action: string) {
  await row(page, text).hover();
  await row(page, text).getByRole('link', { name: action, exact: true }).click();
}

/** The page is no wider than the window: nothing to scroll sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(scrollWidth, `${what}: page width at a ${innerWidth} px window`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** axe's findings within our own markup (WordPress's menus and bars are not ours). */
async function expectNoViolations(page: Page, selector: string, what: string) {
  expect(await axeViolations(page, { include: [[selector]] }), what).toEqual([]);
}

async function screenshot(page: Page, name: string, top?: Locator) {
  const folder = process.env.SITEBEAM_WP_SCREENSHOTS;
  if (!folder) return;
  await page.setViewportSize({ width: 1000, height: 700 });
  await top?.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${folder}/${name}.png` });
}

/** The page's own bulk-action form: tick the rows holding each text, choose the action, Apply. */
async function bulk(page: Page, action: 'Send now' | 'Delete', texts: string[]) {
  for (const text of texts) await row(page, text).getByRole('checkbox').check();
  await page.locator('#bulk-action-selector-top').selectOption({ label: action });
  await page.locator('#doaction').click();
}

// The admin signs in once for the whole file: each test's browser gets the cookies.
let adminCookies: Cookie[] = [];
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  await logIn(await context.newPage());
  adminCookies = await context.cookies();
  await context.close();
});

async function signIn(page: Page) {
  await page.context().addCookies(adminCookies);
}

/** A second browser, signed in as the admin of `page`, without JavaScript. */
async function withoutJavaScript(browser: Browser, page: Page) {
  return browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
}

test('500 mails: views with counts, 1–20 of 500, the pager and Screen Options', async ({
  page,
}) => {
  await testSite.outboxRows({ subject: 'Newsletter {n}', recipient: 'reader{n}@example.com' }, 470);
  await testSite.outboxRows(
    {
      subject: 'Refused {n}',
      recipient: 'refused{n}@example.com',
      state: 'failed',
      failure: 'refused',
      tries: 2,
      last_error: 'The instance refused the message: bad request.',
    },
    30,
  );
  await signIn(page);
  await page.goto(outbox);
  const views = page.locator('.subsubsub');
  await expect(views).toContainText('All (500)');
  await expect(views).toContainText('Waiting (470)');
  await expect(views).toContainText('Failed (30)');
  await expect(range(page)).toHaveText('1–20 of 500');
  await expect(rows(page)).toHaveCount(20);
  await expect(rows(page).first()).toContainText('Refused 30');

  await page.locator('.tablenav.top .next-page').click();
  await expect(range(page)).toHaveText('21–40 of 500');
  await views.getByRole('link', { name: /^Failed/ }).click();
  await expect(range(page)).toHaveText('1–20 of 30');
  await expect(rows(page).first()).toContainText('Failed: refused by the instance');
  await expect(rows(page).first()).toContainText('bad request');

  const perPage = async (count: string) => {
    await page.locator('#show-settings-link').click();
    await page.locator('#sitebeam_outbox_per_page').fill(count);
    await page.locator('#screen-options-apply').click();
  };
  try {
    await perPage('50');
    await expect(range(page)).toHaveText('1–30 of 30');
    await views.getByRole('link', { name: /^All/ }).click();
    await expect(range(page)).toHaveText('1–50 of 500');
    await expect(rows(page)).toHaveCount(50);
  } finally {
    await perPage('20');
  }
  await expect(range(page)).toHaveText('1–20 of 500');
});

test('search by recipient or subject, and sorting by Queued and Next try', async ({ page }) => {
  await testSite.outboxRows({ subject: 'Newsletter {n}', recipient: 'reader{n}@example.com' }, 30);
  await testSite.outboxRows({ subject: 'Soonest', recipient: 'soon@example.com', next_in: 5 });
  await testSite.outboxRows({ subject: 'Given up', state: 'failed', next_in: -9000 });
  await signIn(page);
  await page.goto(outbox);
  await page.locator('#sitebeam-outbox-search-input').fill('reader17@');
  await page.locator('#search-submit').click();
  await expect(range(page)).toHaveText('1–1 of 1');
  await expect(rows(page)).toContainText('Newsletter 17');
  expect(page.url()).not.toContain('_wpnonce');
  await page.locator('#sitebeam-outbox-search-input').fill('soonest');
  await page.locator('#search-submit').click();
  await expect(range(page)).toHaveText('1–1 of 1');
  await expect(rows(page)).toContainText('soon@example.com');
  await page.goto(outbox);
  await page.locator('thead th.column-next_try a').click();
  await expect(page).toHaveURL(/orderby=next_try&order=asc/);
  await expect(rows(page).first()).toContainText('Soonest');
  await page.goto(`${outbox}&orderby=next_try&order=desc&paged=2`);
  await expect(rows(page).last()).toContainText('Given up');
  await page.goto(`${outbox}&orderby=queued&order=asc`);
  await expect(rows(page).first()).toContainText('Newsletter 1');
  await expectNoViolations(page, '.sitebeam-outbox', 'the outbox list');
});

test('bulk Send now sends the ticked mails; bulk Delete asks first, then deletes them and logs it', async ({
  page,
}) => {
  const m = marker();
  await testSite.outboxRows({ subject: `Bulk ${m} {n}`, recipient: 'bulk{n}@example.com' }, 5);
  await signIn(page);
  await page.goto(outbox);
  await bulk(page, 'Send now', ['bulk1@', 'bulk2@', 'bulk3@']);
  await expect(notice(page)).toContainText('3 mails sent.');
  expect((await stub.messages()).map((message) => message.to).sort()).toEqual([
    'bulk1@example.com',
    'bulk2@example.com',
    'bulk3@example.com',
  ]);
  await expect(range(page)).toHaveText('1–2 of 2');

  await bulk(page, 'Delete', ['bulk4@', 'bulk5@']);
  await expect(page.locator('h1')).toHaveText('Delete 2 mails?');
  await expect(page.locator('.sitebeam-outbox__confirm-list li')).toHaveText([
    `bulk4@example.com: “Bulk ${m} 4” (Waiting)`,
    `bulk5@example.com: “Bulk ${m} 5” (Waiting)`,
  ]);
  expect(await testSite.outbox()).toHaveLength(2);
  await page.getByRole('button', { name: 'Delete 2 mails' }).click();
  await expect(notice(page)).toContainText(
    '2 mails deleted from the outbox: they will not be sent.',
  );
  await expect(page.locator('#the-list .no-items')).toHaveText(
    'The outbox is empty: no mail is waiting and none has failed.',
  );
  expect(await testSite.outbox()).toEqual([]);

  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  await expect(page.locator('.sitebeam-log tbody tr', { hasText: `Bulk ${m} 5` })).toContainText(
    'Deleted from the outbox: not sent',
  );
});

test('Delete asks first without JavaScript; Cancel keeps the mail', async ({ page, browser }) => {
  const m = marker();
  await testSite.outboxRows({ subject: `Keep or delete ${m}`, recipient: 'choice@example.com' });
  await signIn(page);
  const context = await withoutJavaScript(browser, page);
  const plain = await context.newPage();
  await plain.goto(outbox);
  await rowAction(plain, 'choice@', 'Delete…');
  await expect(plain.locator('h1')).toHaveText('Delete 1 mail?');
  await expect(plain.locator('.sitebeam-outbox__confirm-list')).toContainText(
    `choice@example.com: “Keep or delete ${m}” (Waiting)`,
  );
  await plain.getByRole('link', { name: 'Cancel' }).click();
  await expect(row(plain, 'choice@')).toHaveCount(1);
  expect(await testSite.outbox()).toHaveLength(1);

  await rowAction(plain, 'choice@', 'Delete…');
  await plain.getByRole('button', { name: 'Delete 1 mail' }).click();
  await expect(plain.locator('.sitebeam-notice')).toContainText(
    '1 mail deleted from the outbox: it will not be sent.',
  );
  expect(await testSite.outbox()).toEqual([]);
  await context.close();

  await page.goto(`${outbox}&confirm=delete&mail=1`);
  await expect(page.locator('.sitebeam-outbox__confirm-none')).toContainText(
    'no such mail in the outbox any more',
  );
});

test('Send now sends a later mail at once; a refused mail is sent again only after a question naming the refusal', async ({
  page,
}) => {
  const m = marker();
  await testSite.outboxRows({
    subject: `Older ${m}`,
    recipient: 'older@example.com',
    age: 600,
    next_in: 3600,
  });
  await testSite.outboxRows({
    subject: `Later ${m}`,
    recipient: 'later@example.com',
    next_in: 3600,
  });
  await testSite.outboxRows({
    subject: `Refused ${m}`,
    recipient: 'refused@example.com',
    state: 'failed',
    failure: 'refused',
    tries: 2,
    last_error:
      'The instance refused the field “to” of the message: value is not a valid email address.',
  });
  await signIn(page);
  await page.goto(outbox);
  await rowAction(page, 'later@', 'Send now');
  await expect(notice(page)).toHaveText(`Sent: “Later ${m}” to later@example.com.`);
  expect((await stub.messages()).map((message) => message.to)).toEqual(['later@example.com']);

  await rowAction(page, 'refused@', 'Send again…');
  await expect(page.locator('h1')).toHaveText('Send again a mail the instance refused?');
  await expect(page.locator('.sitebeam-outbox__confirm-text')).toContainText(
    'value is not a valid email address',
  );
  await expectNoViolations(page, '.sitebeam-outbox', 'the question before sending again');
  await page.getByRole('button', { name: 'Send it again anyway' }).click();
  await expect(notice(page)).toHaveText(`Sent: “Refused ${m}” to refused@example.com.`);
  expect((await stub.messages()).map((message) => message.to)).toEqual([
    'later@example.com',
    'refused@example.com',
  ]);
  await expect(row(page, 'older@')).toContainText('Waiting');
});

test('the single-mail view: headers, the first lines, the attachment and every try, for owners only', async ({
  page,
  browser,
}) => {
  const m = marker();
  const lines = Array.from({ length: 30 }, (_, index) => `Line ${index + 3}`).join('<br>\n');
  const [id] = await testSite.outboxRows({
    recipient: 'ann@example.com',
    subject: `[Site] Password Reset ${m}`,
    content: `Someone asked to reset your password &amp; more.<br>\nhttp://example.com/wp-login.php?action=rp&amp;key=SECRET${m}<br>\n${lines}`,
    attachment: 'invoice.pdf',
    tries: 2,
    age: 3700,
    last_try_ago: 60,
    last_error: 'The instance failed to answer (HTTP 503): try again in a moment.',
    history: [
      { at: now() - 3600, status: 0, error: 'The instance cannot be reached.' },
      { at: now() - 60, status: 503, error: 'The instance failed to answer (HTTP 503).' },
    ],
    message: { replyto: 'help@example.com', from: 'site@example.com', from_name: 'The Site' },
  });
  await signIn(page);
  await page.goto(outbox);
  await rowAction(page, 'ann@', 'ann@example.com');
  await expect(page).toHaveURL(new RegExp(`mail=${id}`));
  await expect(page.locator('h1')).toHaveText('Mail to ann@example.com');
  await expect(page.locator('.sitebeam-outbox__private')).toContainText(
    'may hold a password-reset link',
  );
  const headers = page.locator('.sitebeam-outbox__headers');
  await expect(headers.locator('tr', { hasText: 'Reply-To' })).toContainText('help@example.com');
  await expect(headers.locator('tr', { hasText: 'From' })).toContainText(
    'The Site <site@example.com>',
  );
  await expect(headers.locator('tr', { hasText: 'Kind' })).toContainText('Site mail');
  await expect(headers.locator('tr', { hasText: 'Queued' })).toContainText('1 hour ago');
  const body = page.locator('.sitebeam-outbox__body');
  await expect(body).toContainText('Someone asked to reset your password & more.');
  await expect(body).toContainText(`action=rp&key=SECRET${m}`);
  await expect(body).toContainText('Line 20');
  await expect(body).not.toContainText('Line 21');
  await expect(page.getByText('The first 20 lines only.')).toBeVisible();
  await expect(page.locator('.sitebeam-outbox__attachments')).toHaveText('invoice.pdf');
  const tries = page.locator('.sitebeam-outbox__tries tbody tr');
  await expect(tries).toHaveCount(2);
  await expect(tries.nth(0)).toContainText('HTTP 503');
  await expect(tries.nth(1)).toContainText('No answer');
  await expect(tries.nth(1)).toContainText('The instance cannot be reached.');
  await expectNoViolations(page, '.sitebeam-outbox', 'the single mail');
  await screenshot(page, 'screenshot-2');

  const other = await browser.newContext();
  const subscriber = await other.newPage();
  await logIn(subscriber, 'subscriber', 'subscriber-password');
  const refused = await subscriber.goto(`${outbox}&mail=${id}`);
  expect(refused?.status()).toBe(403);
  expect(await subscriber.content()).not.toContain(`SECRET${m}`);
  await other.close();
});

test('the status line says whether mail goes through, how much waits and when; Try now sends it', async ({
  page,
}) => {
  const m = marker();
  expect(
    (await testSite.sendMail({ to: 'ok@example.com', subject: `Fine ${m}`, message: 'x' })).sent,
  ).toBe(true);
  await signIn(page);
  await page.goto(outbox);
  const status = page.locator('.sitebeam-outbox__status');
  await expect(status).toHaveClass(/notice-success/);
  await expect(status).toContainText('All is well: mail goes through (the last at');
  await expect(status.getByRole('button', { name: 'Try now' })).toHaveCount(0);

  await stub.failEmail(m, { status: 503, retry_after: 120 });
  expect(
    (await testSite.sendMail({ to: 'wait@example.com', subject: `Wait ${m}`, message: 'x' })).sent,
  ).toBe(true);
  const passing = 'The instance failed to answer (HTTP 503): try again in a moment.';
  await testSite.outboxRows({
    recipient: 'anna@example.com',
    subject: `Your order #1043 ${m}`,
    attachment: 'invoice-1043.pdf',
    age: 1500,
    tries: 2,
    last_try_ago: 200,
    last_error: passing,
    next_in: 240,
  });
  await testSite.outboxRows({
    recipient: 'owner@example.com',
    subject: `[Sitebeam test site] Opening hours ${m}`,
    kind: 'contact',
    age: 900,
    tries: 1,
    last_try_ago: 200,
    last_error: passing,
    next_in: 240,
  });
  // Three mails in a row meet the same passing failure: the instance is failing (one alone, a moment after a
  // success, would be that mail's own problem).
  expect(await testSite.passTime(0, true)).toMatchObject({ sent: 0, waiting: 3 });
  await testSite.outboxRows({
    recipient: 'new-member@example',
    subject: `Welcome to the site ${m}`,
    state: 'failed',
    failure: 'refused',
    tries: 2,
    age: 5000,
    last_try_ago: 3000,
    last_error:
      'The instance refused the field “to” of the message: value is not a valid email address.',
  });
  await page.reload();
  await expect(status).toHaveClass(/notice-error/);
  await expect(status).toContainText(/The instance has failed since .+\(.*HTTP 503.*\)/);
  await expect(status).toContainText('3 waiting');
  await expect(status.getByRole('link', { name: '1 failed' })).toHaveAttribute(
    'href',
    /view=failed/,
  );
  await expect(status).toContainText(/next try in \d+ min/);
  await expect(status.getByRole('button', { name: 'Test connection' })).toBeVisible();
  await expect(row(page, 'anna@')).not.toContainText('Contact form message');
  await expect(row(page, 'owner@')).toContainText('Contact form message');
  await expect(row(page, 'anna@').locator('.sitebeam-outbox__attachment')).toHaveAttribute(
    'title',
    'Attachment: invoice-1043.pdf',
  );
  await expectNoViolations(page, '.sitebeam-outbox', 'the status line in an outage');
  await screenshot(page, 'screenshot-1');

  await stub.clearFaults();
  await page.setViewportSize({ width: 1280, height: 720 });
  await status.getByRole('button', { name: 'Try now' }).click();
  await expect(notice(page)).toHaveText('3 mails sent. 0 mails still waiting.');
  await expect(status).toHaveClass(/notice-warning/);
  await expect(status).toContainText('The instance takes mail again (the last at');
  await expect(status).toContainText('1 failed');
  expect((await stub.messages()).map((message) => message.to).sort()).toEqual([
    'anna@example.com',
    'ok@example.com',
    'owner@example.com',
    'wait@example.com',
  ]);

  await status.getByRole('button', { name: 'Test connection' }).click();
  await expect(page).toHaveURL(/page=sitebeam-outbox/);
  await expect(notice(page)).toContainText('Connected to');
});

/** A mail kept after a 503, then refused for good (422) on its retry, as cron runs it. */
async function giveUpOneMail(m: string) {
  await stub.failEmail(m, { status: 503, times: 1 });
  const kept = await testSite.sendMail({
    to: 'gave-up@example.com',
    subject: `Order ${m}`,
    message: 'x',
  });
  expect(kept.sent).toBe(true);
  await stub.failEmail(m, { status: 422 });
  expect((await testSite.passTime(0, true)) as { failed?: number }).toMatchObject({ failed: 1 });
  await stub.clearFaults();
}

/** What the notice and Site Health both say of a given-up mail: the count, the cause, a link to the failed view. */
async function expectFailureSummary(summary: Locator, link: string) {
  await expect(summary).toContainText('1 mail failed and was not delivered (since');
  await expect(summary).toContainText('The last cause:');
  await expect(summary.getByRole('link', { name: link })).toHaveAttribute('href', /view=failed/);
}

test('a mail refused on its retry turns Site Health critical, with the count, the cause and a link', async ({
  page,
}) => {
  await giveUpOneMail(marker());
  await signIn(page);
  await page.goto('/wp-admin/site-health.php');
  const critical = page.locator('#health-check-issues-critical');
  await expect(critical).toContainText('1 site mail failed and was not delivered', {
    timeout: 30_000,
  });
  await critical.getByRole('button', { name: /1 site mail failed/ }).click();
  const panel = page.locator('#health-check-accordion-block-sitebeam_outbox');
  await expectFailureSummary(panel, 'See the outbox');
  await expect(panel).toContainText('Failed mail stays in the outbox');
  await expectNoViolations(page, '#health-check-accordion-block-sitebeam_outbox', 'Site Health');
  await screenshot(
    page,
    'screenshot-4',
    critical.getByRole('button', { name: /1 site mail failed/ }),
  );
});

test('a mail refused on its retry raises a notice; hidden, it comes back with another failure', async ({
  page,
}) => {
  const m = marker();
  await giveUpOneMail(m);
  await signIn(page);
  await page.goto('/wp-admin/index.php');
  const alert = page.locator('.sitebeam-failure-notice');
  await expectFailureSummary(alert, 'See the failed mail');
  await expectNoViolations(page, '.sitebeam-failure-notice', 'the failure notice');
  await screenshot(page, 'screenshot-3');

  // Any admin page shows it; the lighter settings page serves the rest of the test.
  const settings = '/wp-admin/options-general.php';
  await page.goto(settings);
  await alert.getByRole('link', { name: 'Hide until another mail fails' }).click();
  await expect(page).toHaveURL(new RegExp(`${settings}$`));
  await expect(page.locator('#wpbody-content')).toBeVisible();
  await expect(alert).toHaveCount(0);

  await testSite.outboxRows({
    subject: `Second ${m}`,
    state: 'failed',
    failure: 'refused',
    last_try_ago: 1,
    last_error: 'The instance refused the message: second.',
  });
  await page.goto(settings);
  await expect(alert).toContainText('2 mails failed and were not delivered');
  await expect(alert).toContainText('The last cause: The instance refused the message: second.');
  const hidden = page.waitForResponse((response) =>
    response.url().includes('sitebeam_outbox_dismiss'),
  );
  await alert.locator('.notice-dismiss').click();
  expect((await hidden).status()).toBe(200);
  await page.reload();
  await expect(page.locator('#wpbody-content')).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('at 390 px: no sideways scrolling, and the rows fold under the recipient with a toggle', async ({
  page,
}) => {
  const long =
    'a.very.long.address.that.goes.on.and.on.{n}@subdomain.of.an.example-company.example';
  await testSite.outboxRows(
    {
      recipient: long,
      subject: 'A subject that is much longer than a phone is wide, with no break in it {n}',
      last_error:
        'The-instance-failed-to-answer-(HTTP-503):try-again-in-a-moment-and-again-and-again.',
      tries: 3,
      attachment: 'a-rather-long-attachment-name-with-no-spaces-at-all.pdf',
    },
    25,
  );
  const [failed] = await testSite.outboxRows({
    recipient: 'gone@example.com',
    state: 'failed',
    last_try_ago: 1,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(outbox);
  await expectNoSidewaysScroll(page, 'the outbox list');
  const first = rows(page).first();
  await expect(first.locator('td.column-subject')).toBeHidden();
  await first.locator('.toggle-row').click();
  await expect(first.locator('td.column-subject')).toBeVisible();
  await expectNoSidewaysScroll(page, 'the outbox list with a row open');
  await expectNoViolations(page, '.sitebeam-outbox', 'the outbox list at 390 px');

  await page.goto(`${outbox}&mail=${failed}`);
  await expect(page.locator('h1')).toHaveText('Mail to gone@example.com');
  await expectNoSidewaysScroll(page, 'a single mail');
  await page.goto(`${outbox}&confirm=delete&mail=${failed}`);
  await expect(page.locator('h1')).toHaveText('Delete 1 mail?');
  await expectNoSidewaysScroll(page, 'the question before Delete');
  await expectNoViolations(page, '.sitebeam-outbox', 'the question before Delete');
  await page.goto('/wp-admin/index.php');
  await expect(page.locator('.sitebeam-failure-notice')).toBeVisible();
  await expectNoSidewaysScroll(page, 'the dashboard with the failure notice');
});

test('a contact message kept for later tells the visitor it was received, without JavaScript too', async ({
  page,
  browser,
}) => {
  const subject = `Question ${marker()}`;
  const url = await testSite.page(`Contact ${subject}`, '[sitebeam_contact]');
  await stub.failEmail(subject, { status: 503, retry_after: 60, times: 1 });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(url);
  const form = await fillContactForm(plain, subject);
  await form.locator('button[type=submit]').click();
  await expect(plain).toHaveURL(/[?&]sent=1&queued=1/);
  await expect(plain.locator('.sitebeam-contact__sent')).toHaveText(
    'Thanks, we received your message.',
  );
  await context.close();
  expect((await testSite.outbox()).map((kept) => kept.subject)).toEqual([
    expect.stringContaining(subject),
  ]);
  await page.goto(url);
  await expect(page.locator('.sitebeam-contact__sent')).toHaveCount(0);
});
