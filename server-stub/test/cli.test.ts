// The command as people run it: flags, a taken port, signals, persistence across kill -9.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contactDefaults, createClient } from 'sitebeam/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callStub, type RunningStub, startStub } from '../../tests/support/stub-server.ts';
import { requestWithHost, UUID_V4 } from './helpers.js';

/** An address of this machine other than loopback, if it has one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const running: RunningStub[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((stub) => stub.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(flags: string[] = []) {
  const stub = await startStub(flags);
  running.push(stub);
  return stub;
}

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeam-stub-'));
  dirs.push(dir);
  return dir;
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

// Each test starts up to three stub processes one after the other: a Node start takes seconds on a machine
// busy with the other layers, so these wait longer than the suite's 20 s.
describe('sitebeam-stub command', { timeout: 60_000 }, () => {
  it('prints the URLs and the dev token when it starts', async () => {
    const stub = await start();
    expect(stub.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    await vi.waitFor(() => expect(stub.output()).toContain('dev token   dev-token'));
    expect(stub.output()).toContain('/__stub/inbox');
  });

  it.each([
    [['--port', 'abc'], /--port takes a whole number/],
    [['--port', '70000'], /--port takes a whole number/],
    [['--colour'], /Unknown option '--colour'/],
    [['--models', 'gpt2'], /"gpt2" cannot be served \(it needs model weights/],
    [['--models', 'nonsense'], /"nonsense" cannot be served \(it is not a model/],
    [['--load-delay-ms', '-5'], /--load-delay-ms/],
    [['--allowed-host', 'http://stub.example.test'], /--allowed-host takes a host name/],
    [['--history-bytes', '64MiB'], /--history-bytes takes a whole number/],
  ])('refuses %j with exit code 2 and a message', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('--help');
  });

  it('prints its options with --help', async () => {
    const { code, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stderr).toContain('--trust-proxy');
    expect(stderr).toContain('--data-dir');
    expect(stderr).toContain('--allowed-host');
  });

  it('says clearly that a port is taken, and exits 1', async () => {
    const first = await start();
    const port = new URL(first.url).port;
    const { code, stderr } = await run(['--port', port]);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already taken`));
  });

  it('says clearly that --host is not an address of this machine, and exits 1', async () => {
    const { code, stderr } = await run(['--port', '0', '--host', '192.0.2.1']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot listen on 192\.0\.2\.1: no such local address/);
  });

  it('listens on the address --host names', async () => {
    const stub = await start(['--host', '127.0.0.2']);
    expect(stub.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await fetch(`${stub.url}/v1/tracker/json/host.example`)).status).toBe(200);
  });

  it('answers its own surface for the names --allowed-host gives, and no other', async () => {
    const stub = await start([
      '--allowed-host',
      'stub.example.test',
      '--allowed-host',
      '.dev.test',
    ]);
    for (const host of ['stub.example.test', 'api.dev.test']) {
      expect((await requestWithHost(stub.url, host, '/__stub/emails')).status, host).toBe(200);
    }
    expect((await requestWithHost(stub.url, 'evil.example', '/__stub/emails')).status).toBe(403);
  });

  it.skipIf(lanAddress === undefined)(
    'runs the demo relay when --host is an address other than loopback',
    async () => {
      const stub = await start(['--host', lanAddress ?? '', '--open-control']);
      await expect
        .poll(() => stub.output())
        .toContain(
          `open to the network: anyone who reaches ${stub.url} can use the API, the demo pages and /__stub/*`,
        );
      const ticketAnswer = await fetch(`${stub.url}/contact`, { headers: { origin: stub.url } });
      const { ticket } = await ticketAnswer.json();
      await new Promise((resolve) => setTimeout(resolve, contactDefaults.minFillMs));
      const response = await fetch(`${stub.url}/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: stub.url },
        body: JSON.stringify({ name: 'Ann', email: 'ann@example.org', message: 'Hi', ticket }),
      });
      expect(response.status, await response.text()).toBe(200);
      const { emails } = await callStub<{ emails: unknown[] }>(stub, '/__stub/emails');
      expect(emails).toHaveLength(1);
    },
  );

  it.skipIf(lanAddress === undefined)(
    'on an address other than loopback, answers /__stub/* to this machine only and says so',
    async () => {
      const stub = await start(['--host', lanAddress ?? '']);
      await expect
        .poll(() => stub.output())
        .toContain(
          'open to the network: the API and the demo pages; /__stub/* (accounts, tokens, captured mail, faults) answers this machine only (--open-control opens it)',
        );
      // The connection comes from the LAN address, not from loopback.
      const refused = await fetch(`${stub.url}/__stub/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'mallory@example.com' }),
      });
      expect(refused.status).toBe(403);
      expect((await refused.json()).i18n_code).toBe('control_not_allowed');
      expect((await fetch(`${stub.url}/v1/tracker/json/lan.example`)).status).toBe(200);
    },
  );

  it('says a loopback stub is open to this machine only', async () => {
    const stub = await start();
    await expect.poll(() => stub.output()).toContain('open to this machine only');
  });

  it('refuses a bad accounts file with a clear message', async () => {
    const file = join(tempDir(), 'accounts.json');
    writeFileSync(file, JSON.stringify({ accounts: [{ email: 'a@example.com' }] }));
    const { code, stderr } = await run(['--port', '0', '--accounts', file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/accounts\[0\] needs "email" and a non-empty "token"/);
  });

  it('uses the accounts of --accounts instead of the dev account', async () => {
    const file = join(tempDir(), 'accounts.json');
    writeFileSync(
      file,
      JSON.stringify({
        accounts: [{ email: 'ops@example.com', token: 's3cret', email_api: false, ai_api: true }],
      }),
    );
    const stub = await start(['--accounts', file]);
    await expect(
      createClient({ baseUrl: stub.url, token: 'dev-token' }).listModels(),
    ).rejects.toMatchObject({ status: 401 });
    const client = createClient({ baseUrl: stub.url, token: 's3cret' });
    expect((await client.listModels()).status).toBe('ok');
    await expect(client.sendEmail({ to: 'a@example.com', subject: 's' })).rejects.toMatchObject({
      status: 403,
      code: 'not_emailapi',
    });
    expect(stub.output()).not.toContain('s3cret');
  });

  it('warns when the --accounts file, which holds tokens, is readable by other users', async () => {
    const file = join(tempDir(), 'accounts.json');
    writeFileSync(file, JSON.stringify({ accounts: [{ email: 'ops@example.com', token: 't' }] }));
    chmodSync(file, 0o644);
    const shared = await start(['--accounts', file]);
    expect(shared.output()).toContain(
      `${file} holds API tokens and other users can read it (mode 644)`,
    );
    chmodSync(file, 0o600);
    const own = await start(['--accounts', file]);
    expect(own.output()).not.toContain('warning');
  });

  it('--no-email answers 405 and --models limits the listing', async () => {
    const stub = await start(['--no-email', '--models', 'mock,textblobsentiment']);
    const client = createClient({ baseUrl: stub.url, token: 'dev-token' });
    await expect(client.sendEmail({ to: 'a@example.com', subject: 's' })).rejects.toMatchObject({
      status: 405,
      code: 'disabled_email_service',
    });
    expect((await client.listModels()).models).toEqual(['mock', 'textblobsentiment']);
  });

  it('writes visits to --visits-log, one JSON line each', async () => {
    const file = join(tempDir(), 'visits.log');
    const stub = await start(['--visits-log', file]);
    const record = await createClient({ baseUrl: stub.url }).track('log.example');
    await createClient({ baseUrl: stub.url }).track('log.example');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? '')).toEqual(record);
    // Visitors' addresses are personal data: the file is its owner's alone.
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('shuts down gracefully on SIGTERM and SIGINT with exit code 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const stub = await startStub(['--quiet']);
      const exited = new Promise<number | null>((resolve) => stub.child.once('exit', resolve));
      stub.child.kill(signal);
      expect(await exited).toBe(0);
    }
  });
});

describe('--data-dir', () => {
  it('keeps accounts, emails and visits across a kill -9 right after each 2xx', async () => {
    const dataDir = tempDir();
    const first = await start(['--data-dir', dataDir]);
    const created = (await (
      await fetch(`${first.url}/__stub/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'kept@example.com', email_api: true, ai_api: false }),
      })
    ).json()) as { token: string };
    await fetch(`${first.url}/__stub/accounts/kept@example.com`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ai_api: true }),
    });
    await createClient({ baseUrl: first.url, token: created.token }).sendEmail({
      to: 'a@example.com',
      subject: 'Survives',
    });
    const visit = await createClient({ baseUrl: first.url }).track('kept.example');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await start(['--data-dir', dataDir]);
    const client = createClient({ baseUrl: second.url, token: created.token });
    expect((await client.listModels()).status).toBe('ok');
    const emails = (await (await fetch(`${second.url}/__stub/emails`)).json()) as {
      emails: Array<{ id: string; message: { subject: string } }>;
    };
    expect(emails.emails.map((email) => email.message.subject)).toEqual(['Survives']);
    expect(emails.emails[0]?.id).toMatch(UUID_V4);
    const visits = (await (await fetch(`${second.url}/__stub/visits`)).json()) as {
      visits: unknown[];
    };
    expect(visits.visits).toEqual([visit]);

    await fetch(`${second.url}/__stub/emails`, { method: 'DELETE' });
    await second.stop();
    const third = await start(['--data-dir', dataDir]);
    expect(
      ((await (await fetch(`${third.url}/__stub/emails`)).json()) as { emails: unknown[] }).emails,
    ).toEqual([]);
  });
});
