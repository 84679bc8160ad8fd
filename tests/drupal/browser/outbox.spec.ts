// The outbox on a real site: site mail during an outage waits and goes out on cron, once; two
// senders side by side send nothing twice. The owner's screens: outbox-screens.spec.ts.
import { expect } from '@playwright/test';
import { faultFor, newMarker, site } from './outbox-site.ts';
import { anonymousContext, guardToken, stub, stubEmails, stubUrl, test } from './site.ts';

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
