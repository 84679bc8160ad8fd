// Starts the real service (upstream cwcloud-api, served by tests/upstream/serve.py) on a free port.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ListeningProcess, startListeningProcess } from './listening-process.ts';

const serveScript = fileURLToPath(new URL('../upstream/serve.py', import.meta.url));
/** Debian's interpreter, which has the python3-* packages system-deps.sh installs (not pyenv's). */
const debianPython = '/usr/bin/python3';

export const upstreamReleases = ['3.16.15', '3.15.24'] as const;
export type UpstreamRelease = (typeof upstreamReleases)[number];

export interface UpstreamMail {
  from?: string;
  to: string;
  subject: string;
  content?: string;
  [field: string]: unknown;
}

export interface RunningUpstream extends ListeningProcess {
  release: UpstreamRelease;
  /** Confirmed account with the email and AI APIs enabled. */
  token: string;
  /** Confirmed account with the email API only. */
  tokenWithoutAi: string;
  /** Account not confirmed yet. */
  tokenUnconfirmed: string;
  cors: boolean;
  /** What upstream's `log` mail adapter was asked to send, oldest first. */
  sentMail: () => Promise<UpstreamMail[]>;
}

/** Why upstream cannot run here (no release archives), or undefined when it can. */
export function upstreamUnavailable(release: UpstreamRelease): string | undefined {
  const platforms = process.env.SITEBEAM_PLATFORMS;
  if (!platforms)
    return 'SITEBEAM_PLATFORMS is not set: put cwcloud-api-ce-<release>.tar.xz (src/ of comworkio/cwcloud-api at tag ce-<release>) in a folder and set SITEBEAM_PLATFORMS to it';
  const archive = join(platforms, `cwcloud-api-ce-${release}.tar.xz`);
  if (!existsSync(archive)) return `${archive} is missing`;
  if (!existsSync(debianPython)) return `${debianPython} is missing (Debian's python3 packages)`;
  return undefined;
}

export async function startUpstream(options: {
  release: UpstreamRelease;
  cors?: boolean;
}): Promise<RunningUpstream> {
  const cors = options.cors ?? true;
  const running = await startListeningProcess(
    serveScript,
    ['--release', options.release, '--cors', cors ? 'on' : 'off'],
    { name: `upstream ${options.release}`, interpreter: debianPython, startTimeoutMs: 60_000 },
  );
  const startLine =
    running
      .output()
      .split('\n')
      .find((line) => line.includes('listening on')) ?? '';
  const credential = (name: string) => {
    const value = new RegExp(`\\b${name}=(\\S+)`).exec(startLine)?.[1];
    if (!value) throw new Error(`upstream printed no ${name}: ${startLine}`);
    return value;
  };
  return {
    ...running,
    release: options.release,
    cors,
    token: credential('token'),
    tokenWithoutAi: credential('token_without_ai'),
    tokenUnconfirmed: credential('token_unconfirmed'),
    sentMail: async () => {
      const response = await fetch(`${running.url}/__harness/mail`);
      return ((await response.json()) as { mail: UpstreamMail[] }).mail;
    },
  };
}
