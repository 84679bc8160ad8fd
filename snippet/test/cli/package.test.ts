// The npm package as a user gets it: `npm pack`, installed into an empty folder, then
// `npx sitebeam` from there against the real stub, and the script-tag types checked by tsc.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStub, startStub } from '../../../tests/support/stub-server.ts';

const run = promisify(execFile);
const snippet = fileURLToPath(new URL('../..', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'sitebeam-npx-'));
let stub: RunningStub;

/** The user's environment (npm's cache and registry settings), without any SITEBEAM_* of ours. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SITEBEAM_')),
  );
  return { ...env, ...extra };
}

beforeAll(async () => {
  stub = await startStub(['--quiet']);
  const packed = join(folder, 'packed');
  mkdirSync(packed);
  await run('npm', ['pack', '--pack-destination', packed], { cwd: snippet, env: userEnv() });
  const [tarball] = readdirSync(packed);
  writeFileSync(join(folder, 'package.json'), '{"private": true, "type": "module"}');
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packed, tarball ?? '')],
    {
      cwd: folder,
      env: userEnv(),
    },
  );
}, 240_000);
afterAll(async () => {
  await stub?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('the packed npm package', { timeout: 60_000 }, () => {
  it('carries the README, the LICENSE and the built files, and no sources or tests', async () => {
    const installed = join(folder, 'node_modules', 'sitebeam');
    const files = readdirSync(installed);
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'dist', 'types', 'package.json']),
    );
    expect(files).not.toContain('src');
    expect(files).not.toContain('test');
  });

  it('runs `npx sitebeam --help` and a real command against the stub', async () => {
    const help = await run('npx', ['sitebeam', '--help'], { cwd: folder, env: userEnv() });
    expect(help.stdout).toContain('Usage: sitebeam [options] [command]');
    const models = await run('npx', ['sitebeam', 'models'], {
      cwd: folder,
      env: userEnv({ SITEBEAM_API_URL: stub.url, SITEBEAM_API_TOKEN: 'dev-token' }),
    });
    expect(models.stdout.split('\n')).toContain('nltksentiment');
    const sent = await run(
      'npx',
      [
        '--no',
        'sitebeam',
        'email',
        '--to',
        'dev@example.com',
        '--subject',
        'From npx',
        '--content',
        'Hi',
      ],
      {
        cwd: folder,
        env: userEnv({ SITEBEAM_API_URL: stub.url, SITEBEAM_API_TOKEN: 'dev-token' }),
      },
    );
    expect(sent.stdout).toMatch(/^Sent to dev@example\.com\n$/);
  });

  it('warns when the profiles file or its folder is open to other users, naming the chmod', async () => {
    const config = join(folder, 'config');
    const profiles = join(config, 'sitebeam', 'profiles.json');
    mkdirSync(join(config, 'sitebeam'), { recursive: true, mode: 0o755 });
    writeFileSync(
      profiles,
      JSON.stringify({ profiles: { default: { url: stub.url, token: 'dev-token' } } }),
      { mode: 0o644 },
    );
    const models = () =>
      run('npx', ['--no', 'sitebeam', 'models'], {
        cwd: folder,
        env: userEnv({ XDG_CONFIG_HOME: config }),
      });
    chmodSync(join(config, 'sitebeam'), 0o755);
    chmodSync(profiles, 0o644);
    const open = await models();
    expect(open.stdout.split('\n')).toContain('nltksentiment');
    expect(open.stderr).toContain(`run chmod 600 ${profiles}`);
    expect(open.stderr).toContain(`run chmod 700 ${join(config, 'sitebeam')}`);
    chmodSync(join(config, 'sitebeam'), 0o700);
    chmodSync(profiles, 0o600);
    // npx may print warnings of its own: none of the CLI's.
    expect((await models()).stderr).not.toContain('sitebeam:');
  });

  it('sends to 127.0.0.1, asking no DNS server, what is addressed to NAME.localhost', async () => {
    // Loaded before the CLI: records every host name node:dns is asked to look up.
    const lookups = join(folder, 'lookups.txt');
    const trap = join(folder, 'dns-trap.mjs');
    writeFileSync(
      trap,
      `import dns from 'node:dns';\nimport { appendFileSync } from 'node:fs';\nconst lookup = dns.lookup;\ndns.lookup = (host, ...rest) => { appendFileSync(${JSON.stringify(lookups)}, host + '\\n'); return lookup(host, ...rest); };\n`,
    );
    writeFileSync(lookups, '');
    const port = new URL(stub.url).port;
    for (const name of ['localhost', 'evil.localhost']) {
      const models = await run('npx', ['--no', 'sitebeam', 'models'], {
        cwd: folder,
        env: userEnv({
          SITEBEAM_API_URL: `http://${name}:${port}`,
          SITEBEAM_API_TOKEN: 'dev-token',
          NODE_OPTIONS: `--import=${trap}`,
        }),
      });
      expect(models.stdout.split('\n'), name).toContain('nltksentiment');
    }
    expect(readFileSync(lookups, 'utf8')).not.toMatch(/localhost/);
  });

  it('types the script-tag builds for TypeScript users', async () => {
    writeFileSync(
      join(folder, 'page.ts'),
      [
        "import 'sitebeam/sitebeam.min.js';",
        "import 'sitebeam/sitebeam-form.min.js';",
        "const record = await window.sitebeam?.track({ website: 'example.com' });",
        'export const host: string | undefined = record?.host;',
        "export const form: HTMLElement = document.createElement('sitebeam-contact-form');",
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['page.ts'],
      }),
    );
    await expect(run(process.execPath, [tsc, '-p', folder], { cwd: folder })).resolves.toBeTruthy();
  });
});
