// `sitebeam login`, `logout` and `profiles` in a temporary home: the token checked before it is
// saved, a file only the user can read, the order flag > environment > default, and a token
// typed on a terminal that never shows.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callStub, type RunningStub, startStub } from '../../../tests/support/stub-server.ts';
import { runCli, runCliInTerminal, temporaryHome } from './run-cli.ts';

const secret = 'sb-token-7e41a9';
let stub: RunningStub;
let other: RunningStub;
let home: ReturnType<typeof temporaryHome>;
/** A known token whose account has email but not AI. */
let emailOnlyToken = '';
const profilesFile = () => join(home.path, '.config', 'sitebeam', 'profiles.json');
const sitebeam = (args: string[], input?: string, env: Record<string, string> = {}) =>
  runCli(args, { home: home.path, input, env });

beforeAll(async () => {
  [stub, other] = await Promise.all([startStub(['--quiet']), startStub(['--quiet'])]);
  const created = await callStub<{ token: string }>(stub, '/__stub/accounts', 'POST', {
    email: 'owner@example.com',
    email_api: true,
    ai_api: false,
  });
  emailOnlyToken = created.token;
}, 30_000);
afterAll(() => Promise.all([stub.stop(), other.stop()]));
beforeEach(() => {
  home = temporaryHome();
});
afterEach(() => home.remove());

describe('sitebeam login', { timeout: 30_000 }, () => {
  it('checks the token, then saves it in a 0600 file in a 0700 directory', async () => {
    const { code, stdout, stderr } = await sitebeam(['login'], `${stub.url}\ndev-token\n`);
    expect(code).toBe(0);
    expect(stdout).toBe(
      `Token accepted by ${stub.url} (AI API enabled, 4 models). Saved as profile "default" in ${profilesFile()}.\n`,
    );
    expect(stdout + stderr).not.toContain('dev-token');
    expect(statSync(profilesFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.path, '.config', 'sitebeam')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(profilesFile(), 'utf8'))).toEqual({
      profiles: { default: { url: stub.url, token: 'dev-token' } },
    });
    expect((await sitebeam(['models'])).stdout).toContain('mock');
  });

  it('saves a token the AI API refuses with 403: the instance knows it', async () => {
    const { code, stdout } = await sitebeam(['login', '--url', stub.url], `${emailOnlyToken}\n`);
    expect(code).toBe(0);
    expect(stdout).toContain('(the AI API is not enabled for this account)');
    expect(stdout).not.toContain(emailOnlyToken);
  });

  it('saves a token an instance without the AI API answers 405 for: authentication came first', async () => {
    const ce = await startStub(['--quiet', '--ce']);
    try {
      const { code, stdout } = await sitebeam(['login', '--url', ce.url], 'dev-token\n');
      expect(code).toBe(0);
      expect(stdout).toContain(
        `Token accepted by ${ce.url} (this instance has no AI API (its release does not implement it)).`,
      );
    } finally {
      await ce.stop();
    }
  });

  it('refuses a token the instance does not know, and saves nothing (exit 3)', async () => {
    const { code, stdout, stderr } = await sitebeam(['login', '--url', stub.url], `${secret}\n`);
    expect(code).toBe(3);
    expect(stderr).toContain(`${stub.url} refused this token (401 auth_failed): nothing was saved`);
    expect(stdout + stderr).not.toContain(secret);
    expect(() => statSync(profilesFile())).toThrow();
  });

  it('refuses plain http beyond this machine before asking for the token (exit 2)', async () => {
    const { code, stderr } = await sitebeam(
      ['login', '--url', 'http://api.example.com'],
      `${secret}\n`,
    );
    expect(code).toBe(2);
    expect(stderr).toContain('must use https');
  });

  it('says what is missing when standard input ends early (exit 2)', async () => {
    const { code, stderr } = await sitebeam(['login'], `${stub.url}\n`);
    expect(code).toBe(2);
    expect(stderr).toContain('standard input ended before the answer to "API token (not shown):"');
  });

  it('on a terminal, asks for the URL and the token, and never shows the token', async () => {
    const terminal = runCliInTerminal(['login', '--profile', 'local'], { home: home.path });
    await terminal.waitFor('Instance URL (https://…): ');
    terminal.type(`${stub.url}\r`);
    await terminal.waitFor('API token (not shown): ');
    terminal.type('dev-token\r');
    await terminal.waitFor('Saved as profile "local"');
    const { code, screen } = await terminal.exit();
    expect(code).toBe(0);
    expect(screen).toContain(stub.url);
    expect(screen).not.toContain('dev-token');
    expect(JSON.parse(readFileSync(profilesFile(), 'utf8')).profiles.local.token).toBe('dev-token');
  });
});

describe('profiles, precedence and logout', { timeout: 30_000 }, () => {
  async function loginAs(profile: string, url: string) {
    const { code } = await sitebeam(['login', '--profile', profile, '--url', url], 'dev-token\n');
    expect(code).toBe(0);
  }

  it('lists names and URLs, never tokens, as text or JSON', async () => {
    expect((await sitebeam(['profiles'])).stdout).toBe('No profiles yet: run `sitebeam login`.\n');
    await loginAs('default', stub.url);
    await loginAs('staging', other.url);
    const text = await sitebeam(['profiles']);
    expect(text.stdout).toBe(`default  ${stub.url}\nstaging  ${other.url}\n`);
    const json = await sitebeam(['profiles', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      profiles: [
        { name: 'default', url: stub.url },
        { name: 'staging', url: other.url },
      ],
    });
    expect(text.stdout + json.stdout).not.toContain('dev-token');
  });

  it('uses --profile, else SITEBEAM_API_URL, else the profile "default"', async () => {
    await loginAs('default', stub.url);
    await loginAs('staging', other.url);
    const where = async (args: string[], env: Record<string, string> = {}) => {
      const { stdout } = await sitebeam(
        [...args, 'track', 'which.example', '--json'],
        undefined,
        env,
      );
      const { visits: onStub } = await callStub<{ visits: unknown[] }>(stub, '/__stub/visits');
      const { visits: onOther } = await callStub<{ visits: unknown[] }>(other, '/__stub/visits');
      await callStub(stub, '/__stub/visits', 'DELETE');
      await callStub(other, '/__stub/visits', 'DELETE');
      expect(JSON.parse(stdout).website).toBe('which.example');
      return onStub.length === 1 && onOther.length === 0
        ? 'default'
        : onOther.length === 1
          ? 'other'
          : '?';
    };
    const envOther = { SITEBEAM_API_URL: other.url, SITEBEAM_API_TOKEN: 'dev-token' };
    expect(await where([])).toBe('default');
    expect(await where([], envOther)).toBe('other');
    expect(await where(['--profile', 'default'], envOther)).toBe('default');
    expect(await where(['--profile', 'staging'])).toBe('other');
  });

  it('follows $XDG_CONFIG_HOME', async () => {
    const config = join(home.path, 'elsewhere');
    const env = { XDG_CONFIG_HOME: config };
    expect((await sitebeam(['login', '--url', stub.url], 'dev-token\n', env)).code).toBe(0);
    expect(statSync(join(config, 'sitebeam', 'profiles.json')).mode & 0o777).toBe(0o600);
    expect((await sitebeam(['models'], undefined, env)).code).toBe(0);
  });

  it('logout forgets the profile and its token; an unknown profile is exit 3', async () => {
    await loginAs('staging', other.url);
    const out = await sitebeam(['logout', '--profile', 'staging']);
    expect(out.stdout).toBe(`Profile "staging" and its token removed from ${profilesFile()}.\n`);
    expect(readFileSync(profilesFile(), 'utf8')).not.toContain('dev-token');
    expect((await sitebeam(['logout', '--profile', 'staging'])).stdout).toBe(
      'No profile "staging": nothing to remove.\n',
    );
    const missing = await sitebeam(['--profile', 'staging', 'models']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no profile "staging"');
  });
});
