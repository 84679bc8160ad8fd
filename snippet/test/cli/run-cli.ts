// Runs the built `sitebeam` command (dist/cli/main.js) as a user would: piped, or on a
// pseudo-terminal made by util-linux `script`, in a temporary home of its own.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { type RunningStub, startStub } from '../../../tests/support/stub-server.ts';

export const cliPath = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A temporary HOME, so profiles never touch the real one; `remove()` when done. */
export function temporaryHome(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'sitebeam-cli-home-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A test file's stub and temporary home, started before its tests and gone after them. */
export interface CliStub {
  readonly stub: RunningStub;
  readonly home: ReturnType<typeof temporaryHome>;
  /** The stub's URL and its token, as a user exports them. */
  env(): Record<string, string>;
}

/** Starts the real stub (quiet) before the file's tests and a temporary home; both go after. */
export function useCliStub(): CliStub {
  const home = temporaryHome();
  let started: RunningStub | undefined;
  beforeAll(async () => {
    started = await startStub(['--quiet']);
  }, 30_000);
  afterAll(async () => {
    await started?.stop();
    home.remove();
  });
  const stub = () => {
    if (!started) throw new Error('the stub starts in beforeAll: use it inside a test');
    return started;
  };
  return {
    get stub() {
      return stub();
    },
    home,
    env: () => ({ SITEBEAM_API_URL: stub().url, SITEBEAM_API_TOKEN: 'dev-token' }),
  };
}

/** Only PATH, HOME and what the test gives: no SITEBEAM_* or XDG_* leaks in from the runner. */
function cleanEnv(home: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: home, ...env };
}

export function runCli(
  args: string[],
  options: { home: string; env?: Record<string, string>; input?: string | Buffer },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: cleanEnv(options.home, options.env ?? {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface TerminalSession {
  /** Resolves once the screen shows `text` (after everything awaited before). */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  /** Everything the terminal showed so far. */
  screen(): string;
  exit(): Promise<{ code: number | null; screen: string }>;
}

/** The command on a pseudo-terminal: stdin and stdout are a TTY, as in an interactive shell. */
export function runCliInTerminal(
  args: string[],
  options: { home: string; env?: Record<string, string> },
): TerminalSession {
  const command = ['stty cols 100 rows 30;', 'exec', process.execPath, cliPath, ...args]
    .map((word, index) => (index === 0 ? word : shellQuote(word)))
    .join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: cleanEnv(options.home, { SHELL: '/bin/sh', TERM: 'xterm', ...options.env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const listeners = new Set<() => void>();
  const onOutput = (chunk: Buffer) => {
    screen += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let seenUpTo = 0;

  return {
    waitFor(text, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const at = screen.indexOf(text, seenUpTo);
          if (at === -1) return;
          seenUpTo = at + text.length;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`the terminal never showed ${JSON.stringify(text)}:\n${screen}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    type: (keys) => child.stdin.write(keys),
    screen: () => screen,
    async exit() {
      const code = await exited;
      return { code, screen };
    },
  };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
