// The outbox on a real site: site mail during an outage waits and goes out on cron, once; two
// senders side by side send nothing twice; the owner's report and its actions.
import { expect } from '@playwright/test';
import { faultFor, newMarker, site } from './outbox-site.ts';
import {
  adminPage,
  anonymousContext,
  guardToken,
  signedInPage,
  stub,
  stubEmails,
  stubUrl,
  test,
} from './site.ts';

test.beforeAll(async () => {
  await site('route', 'on', stubUrl);
});

test.afterAll(async () => {
  await stub('DELETE', '/__stub/faults');
  await site('route', 'off');
});

test.afterEach(async () => {
  await stub('DELETE', '/__stub/faults');
});

test('the password-reset page says the mail was sent during an outage, and cron sends it once', async ({
  browser,
}) => {
  const name = newMarker();
  await site('user', name);
  await stub('PUT', '/__stub/faults', {
    faults: [faultFor(`${name}@example.com`, { status: 503 })],
  });

  const context = await anonymousContext(browser);
  const page = await context.newPage();
  guardToken(page);
  await page.goto('/user/password');
  await page.getByLabel('Username or email address').fill(name);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText(`If ${name} is a valid account, an email will be sent with instructions`),
  ).toBeVisible();
  await expect(page.getByText('Unable to send email')).toHaveCount(0);
  const mine = async () => (await stubEmails()).filter((mail) => mail.to === `${name}@example.com`);
  expect(await mine()).toHaveLength(0);

  await stub('DELETE', '/__stub/faults');
  await site('due');
  await site('cron');
  const delivered = await mine();
  expect(delivered).toHaveLength(1);
  expect(delivered[0]?.subject).toContain('Replacement login information');
  expect(delivered[0]?.content).toContain('/user/reset/');
  await context.close();
});

test('two senders side by side send each waiting mail once, in order', async () => {
  const marker = newMarker();
  await stub('PUT', '/__stub/faults', { faults: [faultFor(marker, { status: 503 })] });
  expect((await site('send', '6', marker)).results).toEqual(Array(6).fill(true));
  // Each delivery now takes 0.7 s: the first sender still works when the second starts.
  await stub('PUT', '/__stub/faults', { faults: [faultFor(marker, { delay_ms: 700 })] });
  await site('due');

  const runs = await Promise.all([site('deliver'), site('deliver')]);
  const delivered = runs.map(
    (outcome) => (outcome.run as { delivered: number } | null)?.delivered ?? 0,
  );
  test.info().annotations.push({
    type: 'senders',
    description: JSON.stringify(runs.map((outcome) => outcome.run ?? 'lock held by the other')),
  });
  expect(delivered.reduce((sum, count) => sum + count, 0)).toBe(6);
  const mine = (await stubEmails()).filter((mail) => mail.subject.startsWith(`${marker} `));
  expect(mine.map((mail) => mail.subject)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `${marker} ${i}`));
  expect(mine.map((mail) => mail.to)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `to${i}@example.com`));
});

test('the outbox report lists waiting mail; Send now delivers and Delete forgets, each with a token', async ({
  browser,
}) => {
  const marker = newMarker();
  await stub('PUT', '/__stub/faults', {
    faults: [faultFor(marker, { status: 503, retry_after: 120 })],
  });
  expect((await site('send', '2', marker)).results).toEqual([true, true]);

  const editor = await signedInPage(browser, 'editor');
  const refused = await editor.goto('/admin/reports/sitebeam-outbox');
  expect(refused?.status()).toBe(403);
  await editor.context().close();

  const admin = await adminPage(browser);
  await admin.goto('/admin/reports');
  await admin.getByRole('link', { name: 'Sitebeam outbox' }).click();
  await expect(admin).toHaveURL(/\/admin\/reports\/sitebeam-outbox$/);
  const first = admin.getByRole('row').filter({ hasText: `${marker} 1` });
  const second = admin.getByRole('row').filter({ hasText: `${marker} 2` });
  await expect(first).toContainText('to1@example.com');
  await expect(first).toContainText('Waiting');
  await expect(first).toContainText('HTTP 503');
  await expect(first.getByRole('cell').nth(3)).toHaveText('1');
  await expect(second).toContainText('to2@example.com');

  // Without the link's token the action is refused.
  const sendHref = await first.getByRole('link', { name: 'Send now' }).getAttribute('href');
  expect(sendHref).toMatch(/\/send\?token=/);
  const forged = await admin.context().request.get(sendHref?.replace(/\?token=.*/, '') ?? '');
  expect(forged.status()).toBe(403);

  // The instance takes the first mail again, not yet the second: the drain that the first
  // success starts (the outbox delivers after the response) leaves the second waiting.
  await stub('PUT', '/__stub/faults', {
    faults: [faultFor(`${marker} 2`, { status: 503, retry_after: 120 })],
  });
  await first.getByRole('link', { name: 'Send now' }).click();
  await expect(
    admin.getByText(`The mail to to1@example.com (${marker} 1) was delivered.`).first(),
  ).toBeVisible();
  await expect(first).toHaveCount(0);
  const sent = (await stubEmails()).filter((mail) => mail.subject.startsWith(`${marker} `));
  expect(sent.map((mail) => mail.subject)).toEqual([`${marker} 1`]);

  await second.getByRole('button', { name: 'List additional actions' }).click();
  await second.getByRole('link', { name: 'Delete' }).click();
  await expect(
    admin.getByText(`The mail to to2@example.com (${marker} 2) was deleted`).first(),
  ).toBeVisible();
  await expect(second).toHaveCount(0);
  await stub('DELETE', '/__stub/faults');
  await site('due');
  await site('cron');
  expect((await stubEmails()).filter((mail) => mail.subject.startsWith(`${marker} `))).toHaveLength(
    1,
  );
  await admin.context().close();
});
