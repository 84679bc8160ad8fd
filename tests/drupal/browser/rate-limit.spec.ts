// The contact endpoint's rate limit under posts that arrive together: a second php -S with several
// workers (the one browser.sh starts answers one request at a time) takes a burst from one visitor.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { freePort } from '../../support/free-port.ts';
import { expect, settingsPhp, test } from './site.ts';

const allowance = 3;
const burst = 12;

test('a burst of posts from one visitor gets no more than the allowance through', async () => {
  const original = readFileSync(settingsPhp, 'utf8');
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  try {
    // The visitor is the X-Forwarded-For address, behind a trusted proxy: one no other test used.
    writeFileSync(
      settingsPhp,
      `${original}\n$settings['reverse_proxy'] = TRUE;\n$settings['reverse_proxy_addresses'] = ['127.0.0.1'];\n$config['sitebeam.settings']['contact']['flood_limit'] = ${allowance};\n`,
    );
    // The PHP the site runs on (browser.sh passes tests/support/php84 for Drupal 11).
    server = spawn(
      process.env.SITEBEAM_PHP ?? 'php',
      ['-d', 'opcache.revalidate_freq=0', '-S', `127.0.0.1:${port}`, '.ht.router.php'],
      {
        cwd: resolve(dirname(settingsPhp), '..', '..'),
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
        stdio: 'ignore',
        // Its own process group: the workers outlive a master killed alone.
        detached: true,
      },
    );
    await expect
      .poll(async () => (await fetch(`${site}/sitebeam/contact`).catch(() => null))?.status ?? 0)
      .toBe(200);

    // Refused posts count too: these carry no ticket, so none sends a message.
    const statuses = await Promise.all(
      Array.from({ length: burst }, () =>
        fetch(`${site}/sitebeam/contact`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: site,
            'x-forwarded-for': '198.51.100.23',
          },
          body: '{}',
        }).then((response) => response.status),
      ),
    );
    const through = statuses.filter((status) => status !== 429);
    expect(through.length, `statuses: ${statuses.join(' ')}`).toBeLessThanOrEqual(allowance);
    expect(through, 'the allowance itself is used').not.toEqual([]);
    expect(through.every((status) => status === 400)).toBe(true);
  } finally {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
    writeFileSync(settingsPhp, original);
  }
});
