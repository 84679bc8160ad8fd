// The outbox's own delivery on a real site: a cron run killed mid-send (kill -9 of a real PHP
// process) holds cron's lock for 15 minutes, and yet requests deliver its mail once what the outbox
// itself held expires; before update.php, the password-reset page still answers as always.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { drupalRoot, faultFor, newMarker, outboxSitePhp, php, site } from './outbox-site.ts';
import {
  closeContext,
  drupalUrl,
  expect,
  stub,
  stubEmails,
  stubUrl,
  test,
  visitorPage,
} from './site.ts';

test.beforeAll(async () => {
  await site('route', 'on', stubUrl);
});

test.afterAll(async () => {
  await site('route', 'off');
});

test('a cron run killed mid-send leaves nothing stuck: pages deliver its mail while cron stays locked', async () => {
  // A whole cron run, then the expiry of what it held: minutes on a busy machine.
  test.setTimeout(300_000);
  const marker = newMarker();
  const subject = `${marker} 1`;
  await stub('PUT', '/__stub/faults', { faults: [faultFor(marker, { status: 503, times: 1 })] });
  expect((await site('send', '1', marker)).results).toEqual([true]);
  // The next try hangs (the stub answers only after 60 s): the cron run sending it is killed then.
  await stub('PUT', '/__stub/faults', {
    faults: [faultFor(marker, { delay_ms: 60_000, status: 503, times: 1 })],
  });
  await site('due');
  // A cron run of its own: none other holds cron's lock (Automated Cron may run one after a page).
  await expect
    .poll(async () => (await site('locks')).cron, { timeout: 120_000, intervals: [1_000] })
    .toBe(false);

  const cron = spawn(php, [outboxSitePhp, 'cron'], { cwd: drupalRoot, stdio: 'ignore' });
  const exited = once(cron, 'exit');
  try {
    // Mid-send once its request took the fault; the other hooks of cron come first (slow on a busy
    // machine). From then on it has the 20 s time-out to be killed in.
    await expect
      .poll(async () => (await stub<{ faults: unknown[] }>('GET', '/__stub/faults')).faults, {
        timeout: 120_000,
        intervals: [100],
      })
      .toEqual([]);
    cron.kill('SIGKILL');
    await exited;
    expect(await site('locks')).toEqual({ cron: true, outbox: true });
    const [row] = (await site('rows', marker)).rows as { tries: number }[];
    expect(row?.tries, 'killed before it could record the try').toBe(1);

    // Visitors keep coming: once the outbox's own lock and the mail's claim expire (25 s on this
    // site, 2 minutes by default), the end of one of their requests delivers it. (Requests the
    // page cache answers end before Drupal starts, as for Automated Cron: each of these differs.)
    let visit = 0;
    await expect
      .poll(
        async () => {
          visit += 1;
          await fetch(`${drupalUrl}/user/login?visit=${visit}`);
          return (await stubEmails()).filter((mail) => mail.subject === subject).length;
        },
        { timeout: 120_000, intervals: [1_000] },
      )
      .toBe(1);
    expect((await site('locks')).cron, "cron's own lock is still held by the dead run").toBe(true);
    expect((await site('rows', marker)).rows).toEqual([]);
  } finally {
    cron.kill('SIGKILL');
    await site('locks', 'release-cron');
  }
});

// The status report's error while the table is missing: OutboxDeliveryTest (a kernel test; the
// report page itself fetches update data, slow without a network).
test('before update.php the password-reset page answers as always', async ({ browser }) => {
  const name = newMarker();
  await site('user', name);
  await stub('PUT', '/__stub/faults', {
    faults: [faultFor(`${name}@example.com`, { status: 503 })],
  });
  await site('table', 'drop');
  try {
    const page = await visitorPage(browser);
    await page.goto('/user/password');
    await page.getByLabel('Username or email address').fill(name);
    const answer = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().includes('/user/password'),
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    expect((await answer).status()).toBeLessThan(400);
    await expect(
      page.getByText(`If ${name} is a valid account, an email will be sent with instructions`),
    ).toBeVisible();
    await closeContext(page.context());
  } finally {
    await site('table', 'create');
    await stub('DELETE', '/__stub/faults');
  }
});
