// Starts the real server stub as a child process on a free port, for end-to-end suites.
import { fileURLToPath } from 'node:url';
import { type ListeningProcess, startListeningProcess } from './listening-process.ts';

const stubCli = fileURLToPath(new URL('../../server-stub/dist/cli.js', import.meta.url));

/** stdout carries the visit lines, stderr the messages; `output()` has both. */
export type RunningStub = ListeningProcess;

export function startStub(flags: string[] = []): Promise<RunningStub> {
  return startListeningProcess(stubCli, ['--port', '0', ...flags], { name: 'stub' });
}
