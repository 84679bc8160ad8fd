// Named instances and their tokens, in a file only the user can read:
// $XDG_CONFIG_HOME/sitebeam/profiles.json (~/.config/… by default), %APPDATA%\sitebeam on Windows.
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, exitCodes } from './exit-codes.js';

export const DEFAULT_PROFILE = 'default';

export interface Profile {
  url: string;
  token: string;
}

interface ProfilesFile {
  profiles: Record<string, Profile>;
}

export function profilesPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const base =
    platform === 'win32'
      ? env.APPDATA || join(homedir(), 'AppData', 'Roaming')
      : env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'sitebeam', 'profiles.json');
}

export async function readProfiles(path = profilesPath()): Promise<Record<string, Profile>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: Partial<ProfilesFile>;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON: fix or delete it`, exitCodes.credentials);
  }
  return parsed.profiles ?? {};
}

/**
 * What others may read of the profiles, as ssh says of a private key: one line per file or
 * folder that group or others can open, naming the chmod that fixes it. None on Windows, whose
 * %APPDATA% is the user's own.
 */
export async function exposureWarnings(
  path = profilesPath(),
  platform: NodeJS.Platform = process.platform,
): Promise<string[]> {
  if (platform === 'win32') return [];
  const warnings: string[] = [];
  for (const [target, fix] of [
    [dirname(path), '700'],
    [path, '600'],
  ] as const) {
    const mode = await stat(target).then(
      (found) => found.mode & 0o777,
      () => 0,
    );
    if (mode & 0o077) {
      warnings.push(
        `${target} is open to other users (mode ${mode.toString(8)}) and holds API tokens: run chmod ${fix} ${target}`,
      );
    }
  }
  return warnings;
}

export async function saveProfile(name: string, profile: Profile, path = profilesPath()) {
  const profiles = await readProfiles(path);
  profiles[name] = { url: profile.url, token: profile.token };
  await writeProfiles(profiles, path);
}

/** Removes a profile; false when there was none of that name. */
export async function removeProfile(name: string, path = profilesPath()): Promise<boolean> {
  const profiles = await readProfiles(path);
  if (!(name in profiles)) return false;
  delete profiles[name];
  await writeProfiles(profiles, path);
  return true;
}

async function writeProfiles(profiles: Record<string, Profile>, path: string) {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  // Written beside and renamed over: a crash never leaves half a file, and the token is never
  // readable by others, not even for the moment before a chmod.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}
