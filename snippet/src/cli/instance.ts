// Which instance a command talks to, and with which token: `--profile NAME`, else
// SITEBEAM_API_URL (+ SITEBEAM_API_TOKEN), else the profile named `default`.
import { baseUrlProblem } from '../client/index.js';
import { CliError, exitCodes } from './exit-codes.js';
import { DEFAULT_PROFILE, exposureWarnings, profilesPath, readProfiles } from './profiles.js';

export interface Instance {
  url: string;
  token: string | undefined;
  /** Where it came from, for messages: `profile "prod"` or `SITEBEAM_API_URL`. */
  source: string;
  /** Said on stderr before the command runs: a profiles file others can read. */
  warnings?: string[];
}

export async function resolveInstance(
  profileName: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Instance> {
  if (profileName === undefined && env.SITEBEAM_API_URL) {
    return checked({
      url: env.SITEBEAM_API_URL,
      token: env.SITEBEAM_API_TOKEN || undefined,
      source: 'SITEBEAM_API_URL',
    });
  }
  if (profileName === undefined && env.SITEBEAM_API_TOKEN) {
    throw new CliError(
      'SITEBEAM_API_TOKEN is set but SITEBEAM_API_URL is not: set both, or neither to use a profile',
      exitCodes.credentials,
    );
  }
  const name = profileName ?? DEFAULT_PROFILE;
  const profile = (await readProfiles())[name];
  if (!profile) {
    const how =
      profileName === undefined
        ? 'run `sitebeam login`, or set SITEBEAM_API_URL and SITEBEAM_API_TOKEN'
        : `run \`sitebeam login --profile ${name}\``;
    throw new CliError(`no profile "${name}" in ${profilesPath()}: ${how}`, exitCodes.credentials);
  }
  return checked({
    url: profile.url,
    token: profile.token,
    source: `profile "${name}"`,
    warnings: await exposureWarnings(),
  });
}

/** The instance, refused when its URL could misroute the token. */
function checked(instance: Instance): Instance {
  const problem = baseUrlProblem(instance.url);
  if (problem) throw new CliError(`the URL of ${instance.source} ${problem}`, exitCodes.usage);
  return instance;
}

/** The token of an instance, for the commands that need one. */
export function requireToken(instance: Instance): string {
  if (instance.token) return instance.token;
  throw new CliError(
    `${instance.source} has no token: set SITEBEAM_API_TOKEN, or run \`sitebeam login\``,
    exitCodes.credentials,
  );
}
