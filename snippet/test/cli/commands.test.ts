// Every `sitebeam` command against the real stub over HTTP, credentials from the environment:
// text for people, --json for scripts, piped input, the attachment's type and size check.
import { writeFileSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { callStub } from '../../../tests/support/stub-server.ts';
import { limits } from '../../src/client/index.js';
import { runCli, useCliStub } from './run-cli.ts';

const cli = useCliStub();
const { home, env } = cli;
const sitebeam = (args: string[], input?: string) =>
  runCli(args, { home: home.path, env: env(), input });

interface CapturedEmail {
  message: {
    to: string;
    subject: string;
    content: string;
    from?: string;
    bcc?: string;
    cc?: string;
    replyto?: string;
    attachment?: { mime_type: string; file_name: string; b64: string };
  };
}
const inbox = async () =>
  (await callStub<{ emails: CapturedEmail[] }>(cli.stub, '/__stub/emails')).emails;

beforeEach(async () => {
  await callStub(cli.stub, '/__stub/emails', 'DELETE');
  await callStub(cli.stub, '/__stub/visits', 'DELETE');
});

describe('help', { timeout: 30_000 }, () => {
  const commands = [
    'login',
    'logout',
    'profiles',
    'email',
    'models',
    'load',
    'prompt',
    'chat',
    'track',
  ];

  it.each(commands)('`sitebeam %s --help` explains the command with an example', async (name) => {
    const { code, stdout } = await sitebeam([name, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: sitebeam ${name}`);
    expect(stdout).toMatch(/Examples?:\n {2}\$ .*sitebeam/);
  });

  it('`sitebeam --help` lists every command, the credentials order and the exit codes', async () => {
    const { code, stdout } = await sitebeam(['--help']);
    expect(code).toBe(0);
    for (const name of commands) expect(stdout).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
    expect(stdout).toContain('1. --profile NAME');
    expect(stdout).toContain('7  the model is still loading (503)');
  });

  it('exits 2 on a usage error, naming it', async () => {
    const unknown = await sitebeam(['models', '--frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
    const missing = await sitebeam(['email', '--subject', 'Hi']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--to <address>' not specified");
    expect((await sitebeam([])).code).toBe(2);
  });
});

describe('models and prompts', { timeout: 30_000 }, () => {
  it('lists the models, one per line, or the API answer as it came with --json', async () => {
    const text = await sitebeam(['models']);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')).toEqual(expect.arrayContaining(['mock', 'nltksentiment']));
    const json = await sitebeam(['models', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      models: ['mock', 'log', 'nltksentiment', 'textblobsentiment'],
      status: 'ok',
    });
  });

  it('prints the answer line by line, then the score', async () => {
    const { code, stdout } = await sitebeam(['prompt', 'mock', 'first\nsecond']);
    expect(code).toBe(0);
    expect(stdout).toBe('first\nsecond\n');
    const sentiment = await sitebeam([
      '--json',
      'prompt',
      'nltksentiment',
      'VADER is smart, handsome, and funny.',
    ]);
    expect(JSON.parse(sentiment.stdout)).toMatchObject({ status: 'ok', score: 0.8316 });
  });

  it('reads the prompt from standard input, given "-" or nothing', async () => {
    expect((await sitebeam(['prompt', 'mock', '-'], 'piped in\n')).stdout).toBe('piped in\n');
    expect((await sitebeam(['prompt', 'mock'], 'also piped\n')).stdout).toBe('also piped\n');
  });

  it('sends --set values typed as the contract says', async () => {
    const { code } = await sitebeam([
      'prompt',
      'log',
      'typed settings',
      '--set',
      'max_length=60',
      '--set',
      'temperature=0.7',
      '--set',
      'do_sample=true',
    ]);
    expect(code).toBe(0);
    await expect
      .poll(() => cli.stub.output())
      .toContain('"settings":{"max_length":60,"temperature":0.7,"do_sample":true}');
  });

  it.each([
    ['max_length=0', 'max_length must be a whole number of at least 1'],
    ['temperature=-1', 'temperature must be a number above 0'],
    ['do_sample=yes', 'do_sample must be true or false'],
    ['colour=blue', 'unknown setting "colour"'],
    ['max_length', 'expected key=value'],
  ])('refuses --set %s before sending (exit 2)', async (setting, message) => {
    const { code, stderr } = await sitebeam(['prompt', 'log', 'never sent', '--set', setting]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(cli.stub.output()).not.toContain('never sent');
  });

  it('refuses an empty prompt or one over the limit before sending (exit 2)', async () => {
    const long = 'x'.repeat(limits.promptMessageChars + 1);
    const over = await sitebeam(['prompt', 'log', '-'], long);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`the API accepts at most ${limits.promptMessageChars}`);
    expect((await sitebeam(['prompt', 'mock'], '\n')).code).toBe(2);
  });

  it('starts loading a model (202) and says the instance will not tell when it is ready; a model the instance lacks is an API error (exit 1)', async () => {
    const started = await sitebeam(['load', 'mock']);
    expect(started.stdout).toBe(
      'mock: loading started in the background; the first prompt to mock waits until it is ready\n',
    );
    const waited = await sitebeam(['load', 'mock', '--wait']);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain('the instance does not report when a model is ready');
    const json = await sitebeam(['load', 'mock', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'ok', http_status: 202 });
    const unknown = await sitebeam(['load', 'gpt5', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      status: 'ko',
      i18n_code: 'cwai_model_notfound',
    });
    expect(unknown.stderr).toContain('404 cwai_model_notfound');
  });
});

describe('email', { timeout: 30_000 }, () => {
  it('sends plain text from standard input escaped into HTML, with every address option', async () => {
    const { code, stdout } = await sitebeam(
      [
        'email',
        '--to',
        'ada@example.com',
        '--subject',
        'Report',
        '--from',
        'ops@example.com',
        '--bcc',
        'audit@example.com',
        '--cc',
        'team@example.com',
        '--reply-to',
        'help@example.com',
      ],
      'Line one\n<b>not bold</b>\n',
    );
    expect(code).toBe(0);
    const [email] = await inbox();
    expect(stdout).toMatch(/^Sent to ada@example\.com\n$/);
    expect(email?.message).toMatchObject({
      to: 'ada@example.com',
      subject: 'Report',
      from: 'ops@example.com',
      bcc: 'audit@example.com',
      cc: 'team@example.com',
      replyto: 'help@example.com',
    });
    expect(email?.message.content).toContain('Line one\n&lt;b&gt;not bold&lt;/b&gt;');
  });

  it('sends --html as it is, --content-file too, and prints the API answer with --json', async () => {
    const file = join(home.path, 'body.html');
    writeFileSync(file, '<p>From a <em>file</em></p>');
    const html = await sitebeam([
      'email',
      '--to',
      'ada@example.com',
      '--subject',
      'A',
      '--html',
      '--content-file',
      file,
      '--json',
    ]);
    expect(html.code).toBe(0);
    // The service's answer as it came: no id.
    expect(JSON.parse(html.stdout)).toEqual({ status: 'ok', adapter: 'log', response: '' });
    const [email] = await inbox();
    expect(email?.message.content).toBe('<p>From a <em>file</em></p>');
  });

  it('detects the media type from the content, else from the name', async () => {
    const png = join(home.path, 'screenshot.bin');
    writeFileSync(
      png,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    const csv = join(home.path, 'figures.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const first = await sitebeam([
      'email',
      '--to',
      'ada@example.com',
      '--subject',
      'Shot',
      '--content',
      'See',
      '--attach',
      png,
    ]);
    expect(first.stdout).toContain('with screenshot.bin (image/png)');
    await sitebeam([
      'email',
      '--to',
      'ada@example.com',
      '--subject',
      'Figures',
      '--content',
      'See',
      '--attach',
      csv,
    ]);
    const [shot, figures] = await inbox();
    expect(shot?.message.attachment).toMatchObject({
      mime_type: 'image/png',
      file_name: 'screenshot.bin',
    });
    expect(figures?.message.attachment).toEqual({
      mime_type: 'text/csv',
      file_name: 'figures.csv',
      b64: Buffer.from('a,b\n1,2\n').toString('base64'),
    });
  });

  it('refuses an attachment over the limit before sending anything (exit 2)', async () => {
    const big = join(home.path, 'big.iso');
    writeFileSync(big, '');
    await truncate(big, limits.attachmentBytes + 1);
    const { code, stderr } = await sitebeam([
      'email',
      '--to',
      'ada@example.com',
      '--subject',
      'Big',
      '--content',
      'x',
      '--attach',
      big,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('the API accepts attachments up to 10.0 MiB');
    expect(await inbox()).toHaveLength(0);
  });

  it('refuses --html with --text, a missing file and a subject with a line break (exit 2)', async () => {
    const base = ['email', '--to', 'ada@example.com', '--content', 'x'];
    const both = await sitebeam([...base, '--subject', 'S', '--html', '--text']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("option '--html' cannot be used with option '--text'");
    expect(
      (await sitebeam([...base, '--subject', 'S', '--attach', '/nonexistent'])).stderr,
    ).toContain('no such file');
    const broken = await sitebeam([...base, '--subject', 'one\ntwo']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--subject must be one line');
    expect(await inbox()).toHaveLength(0);
  });

  it.each([
    ['--to', 'ada@shop.local', 'ada@shop.local', 'local'],
    ['--cc', 'Ada <ada@Mail.TEST>', 'ada@Mail.TEST', 'test'],
    ['--bcc', 'ada@example.com, bob@printer.invalid', 'bob@printer.invalid', 'invalid'],
    ['--reply-to', 'ada@localhost', 'ada@localhost', 'localhost'],
  ])(
    "refuses %s at a special-use domain before any call (exit 2), as the contract's address rule does",
    async (flag, value, address, domain) => {
      // An instance nobody answers at: a call would end in a network error (exit 8).
      const { code, stderr } = await runCli(
        ['email', '--to', 'ada@example.com', '--subject', 'S', '--content', 'x', flag, value],
        { home: home.path, env: { ...env(), SITEBEAM_API_URL: 'http://127.0.0.1:9' } },
      );
      expect(stderr).toContain(
        `${flag} ${address} is at .${domain}, a name reserved for local use that the instance refuses: use another address`,
      );
      expect(code).toBe(2);
    },
  );

  it('sends a display name that merely looks like a special-use name', async () => {
    const { code } = await sitebeam([
      'email',
      '--to',
      'Test <ada@example.com>',
      '--subject',
      'S',
      '--content',
      'x',
    ]);
    expect(code).toBe(0);
    expect((await inbox()).map((email) => email.message.to)).toEqual(['Test <ada@example.com>']);
  });

  it("shows the instance's reason for a refused address (422, exit 1), naming the option", async () => {
    const { code, stderr } = await sitebeam([
      'email',
      '--to',
      'ada@@example.com',
      '--subject',
      'S',
      '--content',
      'x',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain('the instance refused --to: value is not a valid email address (422)');
  });
});

describe('track', { timeout: 30_000 }, () => {
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

  it('records a visit and prints what the instance saw, with no token needed', async () => {
    const { code, stdout } = await runCli(
      ['track', 'shop.example', '--user-agent', iphone, '--referrer', 'https://ref.example/page'],
      { home: home.path, env: { SITEBEAM_API_URL: cli.stub.url } },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^website {5}shop\.example$/m);
    expect(stdout).toMatch(/^address {5}127\.0\.0\.1 \(IPv4\)$/m);
    expect(stdout).toMatch(/^browser {5}safari on ios$/m);
    expect(stdout).toMatch(/^device {6}mobile \(apple iphone\)$/m);
    expect(stdout).toMatch(/^referrer {4}https:\/\/ref\.example\/page$/m);
    expect(stdout).toMatch(/^location {4}not found \(/m);
  });

  it('prints the record as it came with --json, the one the instance logged', async () => {
    const { stdout } = await sitebeam(['track', 'shop.example', '--json']);
    const record = JSON.parse(stdout);
    const { visits } = await callStub<{ visits: Array<{ cid: string }> }>(
      cli.stub,
      '/__stub/visits',
    );
    expect(record).toMatchObject({ status: 'ok', type: 'tracker', website: 'shop.example' });
    expect(visits.map((visit) => visit.cid)).toEqual([record.cid]);
  });

  it('with --pixel, fetches the image, says what came back, and that the pixel returns no record', async () => {
    const text = await sitebeam(['track', 'shop.example', '--pixel']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('→ 200 image/png, 68 bytes');
    expect(text.stdout).toContain('does not return the record');
    const json = await sitebeam(['track', 'shop.example', '--pixel', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ status: 200, content_type: 'image/png', bytes: 68 });
    const { visits } = await callStub<{ visits: unknown[] }>(cli.stub, '/__stub/visits');
    expect(visits).toHaveLength(2);
  });

  it('refuses a website name over the limit (exit 2)', async () => {
    const { code, stderr } = await sitebeam(['track', 'x'.repeat(limits.websiteChars + 1)]);
    expect(code).toBe(2);
    expect(stderr).toContain(`1 to ${limits.websiteChars} characters`);
  });
});
