// `sitebeam login`, `sitebeam logout`, `sitebeam profiles`: the instances this user works with.
import { baseUrlProblem, createClient, SitebeamApiError } from '../../client/index.js';
import { createAsker } from '../ask.js';
import { CliError, exitCodes, usageError } from '../exit-codes.js';
import { aiUnavailable } from '../explain.js';
import {
  DEFAULT_PROFILE,
  profilesPath,
  readProfiles,
  removeProfile,
  saveProfile,
} from '../profiles.js';
import { printJson, printLine, type Session } from '../session.js';

export async function login(session: Session, options: { url?: string }): Promise<void> {
  const name = session.options.profile ?? DEFAULT_PROFILE;
  const asker = createAsker();
  let url: string;
  let token: string;
  try {
    url = options.url ?? (await asker.ask('Instance URL (https://…): '));
    const problem = baseUrlProblem(url);
    if (problem) throw usageError(`the instance URL ${problem}`);
    token = await asker.askSecret('API token (not shown): ');
  } finally {
    asker.close();
  }
  if (!token) throw usageError('the token is empty: nothing was saved');

  const check = await checkToken(url, token, session.options.timeout * 1000);
  await saveProfile(name, { url: url.replace(/\/+$/, ''), token });
  printLine(
    `Token accepted by ${url} (${check}). Saved as profile "${name}" in ${profilesPath()}.`,
  );
}

/**
 * Lists the models: only a known token gets past 401, so a 403 (AI not enabled for the account)
 * or a 405 (no AI API on this instance) still proves it. Email cannot be checked without sending one.
 */
async function checkToken(url: string, token: string, timeoutMs: number): Promise<string> {
  try {
    const { models } = await createClient({ baseUrl: url, token, timeoutMs }).listModels();
    return `AI API enabled, ${models.length} models`;
  } catch (error) {
    if (!(error instanceof SitebeamApiError)) throw error;
    if (error.status === 403 || error.status === 405) return aiUnavailable(error);
    if (error.status === 401) {
      throw new CliError(
        `${url} refused this token (401 ${error.code}): nothing was saved`,
        exitCodes.credentials,
      );
    }
    throw error;
  }
}

export async function logout(session: Session): Promise<void> {
  const name = session.options.profile ?? DEFAULT_PROFILE;
  const removed = await removeProfile(name);
  printLine(
    removed
      ? `Profile "${name}" and its token removed from ${profilesPath()}.`
      : `No profile "${name}": nothing to remove.`,
  );
}

export async function listProfiles(session: Session): Promise<void> {
  const profiles = Object.entries(await readProfiles()).map(([name, { url }]) => ({ name, url }));
  if (session.json) {
    printJson(JSON.stringify({ profiles }));
    return;
  }
  if (profiles.length === 0) {
    printLine('No profiles yet: run `sitebeam login`.');
    return;
  }
  const width = Math.max(...profiles.map(({ name }) => name.length));
  for (const { name, url } of profiles) printLine(`${name.padEnd(width)}  ${url}`);
}
