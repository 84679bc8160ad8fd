// The runtimes the README shows the relay on, started for the tests: workerd through Miniflare and
// Deno 2 under `deno serve` (both binaries from npm), each serving one module on a free port.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Miniflare, WorkerOptions } from 'miniflare';
import {
  type ListeningProcess,
  startListeningProcess,
} from '../../../tests/support/listening-process.ts';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));
export const workDir = `${repo}.tmp/runtimes`;
const relayModule = fileURLToPath(new URL('../../dist/relay/index.js', import.meta.url));
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

/**
 * The first ```js block after `heading` in the relay's README (snippet/README.md), written to
 * `file` under workDir importing the build instead of the package (relative, as workerd names
 * modules by their path under the modules root); its path.
 */
export function readmeSnippet(heading: string, file: string): string {
  const readme = readFileSync(`${repo}snippet/README.md`, 'utf8');
  const start = readme.indexOf(heading);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start < 0 || !block?.[1])
    throw new Error(`snippet/README.md has no js block after ${heading}`);
  const path = `${workDir}/${file}`;
  const code = block[1].replace(
    /'(?:npm:)?sitebeam\/relay'/g,
    JSON.stringify(relative(workDir, relayModule)),
  );
  mkdirSync(workDir, { recursive: true });
  writeFileSync(path, code);
  return path;
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
