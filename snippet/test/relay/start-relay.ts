// Starts the real `sitebeam-relay` command (the built dist/relay/cli.js) on a free port, for
// tests that want the relay as a browser or a shell meets it.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const relayCli = fileURLToPath(new URL('../../dist/relay/cli.js', import.meta.url));

export interface RunningRelay {
  /** Base URL without a trailing slash; the relay answers on every path. */
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startRelay(env: Record<string, string>): Promise<RunningRelay> {
  const child = spawn(process.execPath, [relayCli, '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`relay exited with ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`relay did not start within 10 s:\n${output}`)), 10_000);
  });
  return {
    url,
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs the command once to completion (for configuration errors): its exit code and output. */
export function runRelayOnce(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [relayCli, '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
