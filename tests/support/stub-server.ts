// Starts the real server stub as a child process on a free port, for end-to-end suites.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const stubCli = fileURLToPath(new URL('../../server-stub/dist/cli.js', import.meta.url));

export interface RunningStub {
  /** Base URL, without a trailing slash, e.g. http://127.0.0.1:40123 */
  url: string;
  child: ChildProcess;
  /** Everything the stub printed so far (stdout: visit lines; stderr: messages). */
  output: () => string;
  stop: () => Promise<void>;
}

export async function startStub(flags: string[] = []): Promise<RunningStub> {
  const child = spawn(process.execPath, [stubCli, '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1].replace(/\/$/, ''));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`stub exited with ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`stub did not start within 20 s:\n${output}`)), 20_000);
  });
  return {
    url,
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
