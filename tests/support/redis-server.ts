// Starts Debian's redis-server on a free loopback port with a temporary directory and no
// persistence, for the suites and the bench that prove the relay's shared rate limit.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

/** The redis-server binary, or undefined when it is not installed (tests/support/system-deps.sh installs it). */
export const redisServerBinary = (() => {
  try {
    return (
      execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
})();

export interface RunningRedis {
  url: string;
  /** Stops the server (the port stays reserved for `start`). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  if (!redisServerBinary) throw new Error('redis-server is not installed');
  const binary = redisServerBinary;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sitebeam-redis-'));
  let child: ChildProcess | undefined;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
      const process = spawn(binary, [...args, '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = process;
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      process.stdout?.on('data', onData);
      process.stderr?.on('data', onData);
      process.once('exit', (code) =>
        reject(new Error(`redis-server exited with ${code}:\n${output}`)),
      );
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
