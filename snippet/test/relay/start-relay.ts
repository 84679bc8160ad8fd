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

/** The site the relays of the tests serve: its pages post from this origin. */
export const testSite = 'http://shop.example.test';

/** A relay's variables in front of the stub at `apiUrl` for `testSite`, with `extra` on top. */
export function relayEnv(
  apiUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    SITEBEAM_API_URL: apiUrl,
    SITEBEAM_API_TOKEN: 'dev-token',
    SITEBEAM_ALLOWED_ORIGINS: testSite,
    SITEBEAM_CONTACT_TO: 'dev@example.com',
    SITEBEAM_CONTACT_FROM: 'forms@example.com',
    SITEBEAM_SITE_NAME: 'Example Shop',
    SITEBEAM_MIN_FILL_MS: '0',
    ...extra,
  };
}

/** Runs the command once to completion (for configuration errors): its exit code and output. */
export async function runRelayOnce(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const { code, stdout, stderr } = await runRelayCommand(['--port', '0'], env);
  return { code, output: stdout + stderr };
}

/** `sitebeam-relay ARGS` to completion with only PATH and `env`: its exit code and output. */
export function runRelayCommand(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [relayCli, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
