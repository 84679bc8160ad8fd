// `sitebeam chat MODEL` driven through standard input and through a pseudo-terminal.
import { describe, expect, it } from 'vitest';
import { runCli, runCliInTerminal, useCliStub } from './run-cli.ts';
import { rateLimitNextPrompt } from './stub-faults.ts';

const cli = useCliStub();
const { home, env } = cli;

describe('sitebeam chat', { timeout: 30_000 }, () => {
  it('answers each piped line, skipping blank ones, with no prompt', async () => {
    const { code, stdout, stderr } = await runCli(['chat', 'mock'], {
      home: home.path,
      env: env(),
      input: 'first question\n\nsecond question\n',
    });
    expect(code).toBe(0);
    expect(stdout).toBe('first question\nsecond question\n');
    expect(stderr).toBe('');
  });

  it('prints one JSON answer per line with --json', async () => {
    const { stdout } = await runCli(['chat', 'nltksentiment', '--json'], {
      home: home.path,
      env: env(),
      input: 'I love it\nI hate it\n',
    });
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers).toHaveLength(2);
    expect(answers[0].score).toBeGreaterThan(0);
    expect(answers[1].score).toBeLessThan(0);
  });

  it('goes on after a rate limit (then exits 6), and stops on a refused token (exit 3)', async () => {
    await rateLimitNextPrompt(cli.stub, 'one');
    const limited = await runCli(['chat', 'mock'], {
      home: home.path,
      env: env(),
      input: 'one\ntwo\n',
    });
    expect(limited.code).toBe(6);
    expect(limited.stderr).toContain('rate limited (429 rate_limited');
    expect(limited.stdout).toBe('two\n');
    const refused = await runCli(['chat', 'mock'], {
      home: home.path,
      env: { ...env(), SITEBEAM_API_TOKEN: 'not-known-3b7' },
      input: 'one\ntwo\n',
    });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.match(/refused the token/g)).toHaveLength(1);
  });

  it('on a terminal: a prompt per line, the answer with its score, Ctrl-D to leave', async () => {
    const terminal = runCliInTerminal(['chat', 'mock'], { home: home.path, env: env() });
    await terminal.waitFor(
      `Chatting with mock on ${cli.stub.url}: one prompt per line, Ctrl-D to leave.`,
    );
    await terminal.waitFor('> ');
    terminal.type('hello there\r');
    await terminal.waitFor('hello there\r');
    await terminal.waitFor('> ');
    terminal.type('again\r');
    await terminal.waitFor('again\r');
    await terminal.waitFor('> ');
    terminal.type('\x04');
    expect((await terminal.exit()).code).toBe(0);
  });

  it('on a terminal: Ctrl-C interrupts with exit code 130, as shell commands do', async () => {
    const terminal = runCliInTerminal(['chat', 'mock'], { home: home.path, env: env() });
    await terminal.waitFor('> ');
    terminal.type('\x03');
    expect((await terminal.exit()).code).toBe(130);
  });
});
