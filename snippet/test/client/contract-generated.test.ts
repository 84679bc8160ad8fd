// The generated contract files must be what contract/generate.mjs makes of the JSON today.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repository = new URL('../../../', import.meta.url).pathname;
const generated = [
  'snippet/src/client/contract.generated.ts',
  'wordpress-plugin/src/Contract.php',
  'drupal-module/src/Contract.php',
];

const check = (root: string) =>
  spawnSync(process.execPath, [join(root, 'contract/generate.mjs'), '--check'], {
    encoding: 'utf8',
  });

describe('generated contract files', () => {
  const copy = mkdtempSync(join(tmpdir(), 'sitebeam-contract-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('are up to date with contract/sitebeam-contract.json', () => {
    const result = check(repository);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the check names every stale file and fails', () => {
    cpSync(join(repository, 'contract'), join(copy, 'contract'), { recursive: true });
    for (const path of generated) cpSync(join(repository, path), join(copy, path));
    expect(check(copy).status).toBe(0);

    appendFileSync(join(copy, generated[0] as string), '// edited by hand\n');
    appendFileSync(join(copy, generated[2] as string), '\n');
    const result = check(copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${generated[0]} is stale`);
    expect(result.stderr).toContain(`${generated[2]} is stale`);
    expect(result.stderr).not.toContain(generated[1]);
  });

  it('regenerating rewrites a stale file', () => {
    execFileSync(process.execPath, [join(copy, 'contract/generate.mjs')]);
    expect(check(copy).status).toBe(0);
  });
});
