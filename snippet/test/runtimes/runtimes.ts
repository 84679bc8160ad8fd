// The runtimes the README shows the relay on, started for the tests: workerd through Miniflare and
// Deno 2 under `deno serve` (both binaries from npm), each serving one module on a free port.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Miniflare, WorkerOptions } from 'miniflare';
import {
  type ListeningProcess,
  startListeningProcess,
} from '../../../tests/support/listening-process.ts';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));
export const workDir = `${repo}.tmp/runtimes`;
const binary = (name: string) => `${repo}node_modules/.bin/${name}`;

/** Why the runtime's binary cannot run here, or undefined when it can. */
function unavailable(name: string): string | undefined {
  try {
    execFileSync(binary(name), ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch (error) {
    return `the ${name} binary from npm cannot run here: ${String(error)}`;
  }
}

export const workerdUnavailable = unavailable('workerd');
export const denoUnavailable = unavailable('deno');
for (const reason of [workerdUnavailable, denoUnavailable]) {
  if (reason) console.warn(`SKIPPED: ${reason}`);
}

export interface RunningRuntime {
  url: string;
  stop(): Promise<void>;
}

/** A module Worker (and its imports under the repository) in workerd, with these bindings. */
export async function startWorkerd(
  scriptPath: string,
  workers: Array<Partial<WorkerOptions> & { name: string }>,
): Promise<RunningRuntime & { miniflare: Miniflare }> {
  const { Miniflare } = await import('miniflare');
  const miniflare = new Miniflare({
    workers: workers.map((worker) => ({
      modules: true,
      scriptPath,
      modulesRoot: repo,
      modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
      compatibilityDate: '2025-01-01',
      ...worker,
    })) as WorkerOptions[],
  });
  const url = await miniflare.ready;
  return { url: url.origin, miniflare, stop: () => miniflare.dispose() };
}

/** `deno serve` of a module on a free loopback port, with these environment variables and flags. */
export function startDenoServe(
  script: string,
  env: Record<string, string> = {},
  flags: string[] = [],
): Promise<ListeningProcess> {
  return startListeningProcess(script, [], {
    name: 'deno serve',
    startTimeoutMs: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: workDir, DENO_NO_UPDATE_CHECK: '1', ...env },
    interpreter: binary('deno'),
    interpreterArgs: [
      'serve',
      '--allow-env',
      '--allow-net',
      '--allow-read',
      ...flags,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
    ],
  });
}
