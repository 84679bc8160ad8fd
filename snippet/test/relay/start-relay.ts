// Starts the real `sitebeam-relay` command (the built dist/relay/cli.js) on a free port, for
// tests that want the relay as a browser or a shell meets it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  type ListeningProcess,
  startListeningProcess,
} from '../../../tests/support/listening-process.ts';

const relayCli = fileURLToPath(new URL('../../dist/relay/cli.js', import.meta.url));

export type RunningRelay = ListeningProcess;

export function startRelay(env: Record<string, string>): Promise<RunningRelay> {
  return startListeningProcess(relayCli, ['--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    name: 'relay',
  });
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
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, output }));
  });
}
