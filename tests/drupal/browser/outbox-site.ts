// The outbox specs' hands on the test site: tests/drupal/outbox-site.php, run in a PHP process of
// its own, and the stub faults that match only one test's mail.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { settingsPhp } from './site.ts';

const run = promisify(execFile);

/** The PHP the site runs on (tests/support/php84 keeps the PID it was started with). */
export const php = process.env.SITEBEAM_PHP ?? 'php';
export const drupalRoot = resolve(dirname(settingsPhp), '../..');
export const outboxSitePhp = fileURLToPath(new URL('../outbox-site.php', import.meta.url));

/** Runs tests/drupal/outbox-site.php on the test site; its JSON outcome. */
export async function site(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(php, [outboxSitePhp, ...args], {
    cwd: drupalRoot,
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}

/** A text no other test sends: the faults match it, and only it, in the mail's JSON. */
export const newMarker = () => `outbox${randomBytes(5).toString('hex')}`;

export const faultFor = (marker: string, rule: Record<string, unknown>) => ({
  method: 'POST',
  path_prefix: '/v1/email',
  body_contains: marker,
  ...rule,
});
