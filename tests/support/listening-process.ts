// Starts a command that prints `listening on http://…` and stops it again: the stub, the relay (Node),
// upstream's service (Python), a relay under `deno serve`.
import { type ChildProcess, spawn } from 'node:child_process';

export interface ListeningProcess {
  /** Base URL, without a trailing slash, e.g. http://127.0.0.1:40123 */
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr together. */
  output: () => string;
  stop: () => Promise<void>;
}

export async function startListeningProcess(
  script: string,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    name: string;
    startTimeoutMs?: number;
    /** Runs the script; Node's own executable unless given. */
    interpreter?: string;
    /** The interpreter's own arguments, before the script (e.g. `serve --port 0` for deno). */
    interpreterArgs?: string[];
  },
): Promise<ListeningProcess> {
  const interpreter = options.interpreter ?? process.execPath;
  const child = spawn(interpreter, [...(options.interpreterArgs ?? []), script, ...args], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // A cold start on a busy machine (a fresh CI machine, one core held) took over 20 s.
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/i.exec(output);
      if (match?.[1]) resolve(match[1].replace(/\/$/, ''));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${options.name} exited with ${code}:\n${output}`)),
    );
    setTimeout(
      () => reject(new Error(`${options.name} did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
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
