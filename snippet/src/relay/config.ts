// What a relay needs to know, from an object or from environment variables.
import { isBareEmailAddress } from '../client/address.js';
import { baseUrlProblem } from '../client/base-url.js';
import { contactDefaults, singleLineForbiddenPattern } from '../form/protocol.js';

export interface RelayConfig {
  /** Base URL of the Sitebeam instance. */
  apiUrl: string;
  /** The API token: stays on the server, never appears in an answer. */
  apiToken: string;
  /** Where every message goes; a visitor never chooses it. */
  contactTo: string;
  /** The sender the API sends as (never the visitor's address, for DMARC). */
  contactFrom: string;
  /** Origins (scheme://host[:port]) whose pages may post to the relay. */
  allowedOrigins: string[];
  /** Prefixes every subject, e.g. `[Example Shop] …`. */
  siteName: string;
  /** Posts a visitor may make per window (default 5). */
  rateLimit?: number;
  /** The rate limit's window in seconds (default 60). */
  rateLimitWindowS?: number;
  /** Former name of `rateLimit` with a 60-second window; still read. */
  rateLimitPerMinute?: number;
  /** Milliseconds a person needs at least to fill the form, from the ticket's issue (default 3,000). */
  minFillMs?: number;
  /**
   * Signs the fill-time tickets. Default: derived from the API token, so every instance of the
   * relay accepts the others' tickets and nothing more needs configuring.
   */
  ticketSecret?: string;
  /**
   * Where a native (no JavaScript) post returns. Browsers send only the origin as `Referer` to
   * another site, so set this to the form's page (or a thank-you page); a full `Referer` on an
   * allowed origin wins. Default: the `Referer`'s origin, else the first allowed origin.
   */
  redirectUrl?: string;
  /** Header a trusted proxy or platform sets to the visitor's address, e.g. `x-forwarded-for`. */
  clientIpHeader?: string;
  /**
   * How many proxies of yours append to `clientIpHeader` (default 1): the visitor is that many
   * entries from the right; entries further left are whatever the visitor sent.
   */
  trustedProxyHops?: number;
  /** Milliseconds before the API call is abandoned (default 10,000). */
  apiTimeoutMs?: number;
  /** Where the real cause of a failure is written (default `console.error`). */
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

/** Configuration with every default applied and every value checked. */
export type ResolvedRelayConfig = Required<
  Omit<
    RelayConfig,
    'fetch' | 'clientIpHeader' | 'redirectUrl' | 'rateLimitPerMinute' | 'ticketSecret'
  >
> &
  Pick<RelayConfig, 'fetch' | 'clientIpHeader' | 'redirectUrl' | 'ticketSecret'>;

export class RelayConfigError extends Error {
  override readonly name = 'RelayConfigError';
  /** The option (or environment variable) at fault. */
  readonly setting: string;
  readonly problem: string;

  constructor(setting: string, problem: string) {
    super(`${setting} ${problem}`);
    this.setting = setting;
    this.problem = problem;
  }
}

const envNames = {
  apiUrl: 'SITEBEAM_API_URL',
  apiToken: 'SITEBEAM_API_TOKEN',
  contactTo: 'SITEBEAM_CONTACT_TO',
  contactFrom: 'SITEBEAM_CONTACT_FROM',
  allowedOrigins: 'SITEBEAM_ALLOWED_ORIGINS',
  siteName: 'SITEBEAM_SITE_NAME',
  rateLimit: 'SITEBEAM_RATE_LIMIT',
  rateLimitWindowS: 'SITEBEAM_RATE_LIMIT_WINDOW_S',
  rateLimitPerMinute: 'SITEBEAM_RATE_LIMIT_PER_MINUTE',
  minFillMs: 'SITEBEAM_MIN_FILL_MS',
  ticketSecret: 'SITEBEAM_TICKET_SECRET',
  redirectUrl: 'SITEBEAM_REDIRECT_URL',
  clientIpHeader: 'SITEBEAM_CLIENT_IP_HEADER',
  trustedProxyHops: 'SITEBEAM_TRUSTED_PROXY_HOPS',
} as const;

/**
 * Reads the relay's configuration from environment variables (`process.env`, a Worker's `env`…).
 * Throws a RelayConfigError naming the first missing or malformed variable.
 */
export function configFromEnv(env: Record<string, string | undefined>): RelayConfig {
  const required = (key: keyof typeof envNames) => {
    const value = env[envNames[key]]?.trim();
    if (!value) throw new RelayConfigError(envNames[key], 'is not set');
    return value;
  };
  const optional = (key: keyof typeof envNames) => env[envNames[key]]?.trim() || undefined;
  const wholeNumber = (key: keyof typeof envNames) => {
    const value = optional(key);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new RelayConfigError(envNames[key], 'must be a whole number');
    return Number(value);
  };

  const config: RelayConfig = {
    apiUrl: required('apiUrl'),
    apiToken: required('apiToken'),
    contactTo: required('contactTo'),
    contactFrom: required('contactFrom'),
    allowedOrigins: required('allowedOrigins')
      .split(/[\s,]+/)
      .filter(Boolean),
    siteName: required('siteName'),
  };
  for (const key of [
    'rateLimit',
    'rateLimitWindowS',
    'rateLimitPerMinute',
    'minFillMs',
    'trustedProxyHops',
  ] as const) {
    const value = wholeNumber(key);
    if (value !== undefined) config[key] = value;
  }
  for (const key of ['ticketSecret', 'redirectUrl', 'clientIpHeader'] as const) {
    const value = optional(key);
    if (value !== undefined) config[key] = value;
  }
  try {
    resolveConfig(config);
  } catch (error) {
    if (!(error instanceof RelayConfigError)) throw error;
    const variable = envNames[error.setting as keyof typeof envNames] ?? error.setting;
    throw new RelayConfigError(variable, error.problem);
  }
  return config;
}

/** Applies defaults and refuses a configuration that could not work or would be unsafe. */
export function resolveConfig(config: RelayConfig): ResolvedRelayConfig {
  const url = (setting: string, value: string) => {
    try {
      const parsed = new URL(value);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed;
    } catch {}
    throw new RelayConfigError(setting, `must be an http(s) URL, not "${value}"`);
  };
  const address = (setting: string, value: string) => {
    if (!isBareEmailAddress(value)) {
      throw new RelayConfigError(setting, `must be one email address, not "${value}"`);
    }
    return value;
  };
  const atLeastOne = (setting: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) {
      throw new RelayConfigError(setting, 'must be a whole number of at least 1');
    }
    return value;
  };

  const apiUrlProblem = baseUrlProblem(config.apiUrl);
  if (apiUrlProblem) throw new RelayConfigError('apiUrl', apiUrlProblem);
  if (!config.apiToken) throw new RelayConfigError('apiToken', 'is empty');
  if (config.allowedOrigins.length === 0) throw new RelayConfigError('allowedOrigins', 'is empty');
  if (!config.siteName.trim() || singleLineForbiddenPattern.test(config.siteName)) {
    throw new RelayConfigError('siteName', 'must be one non-empty line');
  }
  if (config.rateLimitPerMinute !== undefined && config.rateLimit !== undefined) {
    throw new RelayConfigError(
      'rateLimitPerMinute',
      `is the former name of ${envNames.rateLimit}: set only ${envNames.rateLimit} (and ${envNames.rateLimitWindowS})`,
    );
  }
  const rateLimitWindowS =
    config.rateLimitPerMinute !== undefined
      ? 60
      : (config.rateLimitWindowS ?? contactDefaults.rateLimitWindowS);
  const minFillMs = config.minFillMs ?? contactDefaults.minFillMs;
  if (!Number.isInteger(minFillMs) || minFillMs < 0) {
    throw new RelayConfigError('minFillMs', 'must be a whole number of milliseconds');
  }
  const allowedOrigins = config.allowedOrigins.map(
    (origin) => url('allowedOrigins', origin).origin,
  );
  return {
    apiUrl: config.apiUrl,
    apiToken: config.apiToken,
    contactTo: address('contactTo', config.contactTo),
    contactFrom: address('contactFrom', config.contactFrom),
    allowedOrigins,
    siteName: config.siteName.trim(),
    rateLimit: atLeastOne(
      config.rateLimitPerMinute !== undefined ? 'rateLimitPerMinute' : 'rateLimit',
      config.rateLimitPerMinute ?? config.rateLimit ?? contactDefaults.rateLimitCount,
    ),
    rateLimitWindowS: atLeastOne('rateLimitWindowS', rateLimitWindowS),
    minFillMs,
    ticketSecret: config.ticketSecret,
    trustedProxyHops: atLeastOne('trustedProxyHops', config.trustedProxyHops ?? 1),
    redirectUrl: config.redirectUrl ? url('redirectUrl', config.redirectUrl).href : undefined,
    clientIpHeader: config.clientIpHeader?.toLowerCase(),
    apiTimeoutMs: atLeastOne('apiTimeoutMs', config.apiTimeoutMs ?? 10_000),
    log: config.log ?? ((line) => console.error(line)),
    fetch: config.fetch,
  };
}
