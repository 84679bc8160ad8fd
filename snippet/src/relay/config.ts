// What a relay needs to know, from an object or from environment variables.
import { isBareEmailAddress, specialUseDomainOf } from '../client/address.js';
import { baseUrlProblem, isLoopbackHost } from '../client/base-url.js';
import { contactDefaults, singleLineForbiddenPattern } from '../form/protocol.js';
import { type ConsentConfig, consentFromEnv, resolveConsent } from './consent.js';
import { envReader, RelayConfigError, withEnvNames } from './env.js';
import type { OutboxStore } from './outbox/outbox.js';
import {
  type OutboxSettings,
  outboxOptionEnvNames,
  outboxSettingsFromEnv,
  type ResolvedOutboxSettings,
  resolveOutboxSettings,
} from './outbox/settings.js';
import type { WindowCounter } from './rate-limit.js';
import { safeLog } from './safe-log.js';

/** What every endpoint of the relay (contact form, chat) needs. */
export interface EndpointConfig {
  /** Base URL of the Sitebeam instance. */
  apiUrl: string;
  /** The API token: stays on the server, never appears in an answer. */
  apiToken: string;
  /** Origins (scheme://host[:port]) whose pages may post to the relay. */
  allowedOrigins: string[];
  /**
   * The relay's own public origin, e.g. `https://relay.example.com`: its own pages (the
   * confirmation page, the no-JavaScript chat page) post from there. Unset, the relay counts the
   * origin of the request's `Host` as its own only when DNS rebinding cannot forge that name
   * (`localhost`, `*.localhost`, an IP address): any other `Host` is the client's word.
   */
  publicUrl?: string;
  /** Header a trusted proxy or platform sets to the visitor's address, e.g. `x-forwarded-for`. */
  clientIpHeader?: string;
  /**
   * How many proxies of yours append to `clientIpHeader` (default 1): the visitor is that many
   * entries from the right; entries further left are whatever the visitor sent.
   */
  trustedProxyHops?: number;
  /** Milliseconds before the API call is abandoned (default 10,000). */
  apiTimeoutMs?: number;
  /**
   * Where the real cause of a failure is written (default `console.error`): one line per event,
   * control characters made visible, the token as `[token]`.
   */
  log?: (line: string) => void;
  /**
   * Where the rate limits count, shared by every instance of the relay (e.g. Redis, a Durable
   * Object). Default: memory, each process or serverless isolate counting alone.
   */
  rateLimitCounter?: WindowCounter;
  fetch?: typeof fetch;
}

/** The contact form's endpoint: the shared settings, and where and how messages go. */
export interface RelayConfig extends EndpointConfig {
  /** Where every message goes; a visitor never chooses it. */
  contactTo: string;
  /** The sender the API sends as (never the visitor's address, for DMARC). */
  contactFrom: string;
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
  /** The consent checkbox a visitor must tick before a message is sent (default: none). */
  consent?: ConsentConfig;
  /**
   * A durable store that keeps a message the instance cannot take now (no answer, 429, 5xx) and
   * delivers it later: the visitor gets 202 queued instead of "try again". Each runtime's own:
   * `durableObjectOutbox(env.OUTBOX)` on workerd, `denoKvOutbox(kv)` on Deno; the Node command
   * uses Redis when SITEBEAM_REDIS_URL is set. Default: none.
   */
  outbox?: OutboxStore;
  /** The outbox's caps and timing (SITEBEAM_OUTBOX_* variables). */
  outboxSettings?: OutboxSettings;
  /**
   * Opens the outbox's admin route (`/admin/outbox`, for `sitebeam-relay outbox --url`) to
   * requests carrying it as a bearer token; at least 32 characters. Default: the route is off.
   */
  adminSecret?: string;
}

type OptionalSetting = 'fetch' | 'clientIpHeader' | 'publicUrl' | 'rateLimitCounter';

export type ResolvedEndpointConfig = Required<Omit<EndpointConfig, OptionalSetting>> &
  Pick<EndpointConfig, OptionalSetting>;

/** Configuration with every default applied and every value checked. */
type OptionalRelaySetting = 'redirectUrl' | 'ticketSecret' | 'consent' | 'outbox' | 'adminSecret';

export type ResolvedRelayConfig = Required<
  Omit<
    RelayConfig,
    OptionalSetting | OptionalRelaySetting | 'rateLimitPerMinute' | 'outboxSettings'
  >
> &
  Pick<RelayConfig, OptionalSetting | OptionalRelaySetting> & {
    outboxSettings: ResolvedOutboxSettings;
  };

const endpointEnvNames = {
  apiUrl: 'SITEBEAM_API_URL',
  apiToken: 'SITEBEAM_API_TOKEN',
  allowedOrigins: 'SITEBEAM_ALLOWED_ORIGINS',
  publicUrl: 'SITEBEAM_PUBLIC_URL',
  clientIpHeader: 'SITEBEAM_CLIENT_IP_HEADER',
  trustedProxyHops: 'SITEBEAM_TRUSTED_PROXY_HOPS',
} as const;

const envNames = {
  ...endpointEnvNames,
  contactTo: 'SITEBEAM_CONTACT_TO',
  contactFrom: 'SITEBEAM_CONTACT_FROM',
  siteName: 'SITEBEAM_SITE_NAME',
  rateLimit: 'SITEBEAM_RATE_LIMIT',
  rateLimitWindowS: 'SITEBEAM_RATE_LIMIT_WINDOW_S',
  rateLimitPerMinute: 'SITEBEAM_RATE_LIMIT_PER_MINUTE',
  minFillMs: 'SITEBEAM_MIN_FILL_MS',
  ticketSecret: 'SITEBEAM_TICKET_SECRET',
  redirectUrl: 'SITEBEAM_REDIRECT_URL',
  adminSecret: 'SITEBEAM_ADMIN_SECRET',
} as const;

const consentEnvNames = {
  'consent.label': 'SITEBEAM_CONTACT_CONSENT',
  'consent.policyUrl': 'SITEBEAM_CONTACT_CONSENT_URL',
} as const;

/** The contact form's own required variables: a relay given none of them serves the chat alone. */
export const contactEnvNames = [envNames.contactTo, envNames.contactFrom, envNames.siteName];

/** The settings every endpoint shares, from environment variables. */
export function endpointConfigFromEnv(env: Record<string, string | undefined>): EndpointConfig {
  const read = envReader(env, endpointEnvNames);
  const config: EndpointConfig = {
    apiUrl: read.required('apiUrl'),
    apiToken: read.required('apiToken'),
    allowedOrigins: read
      .required('allowedOrigins')
      .split(/[\s,]+/)
      .filter(Boolean),
  };
  const trustedProxyHops = read.wholeNumber('trustedProxyHops');
  if (trustedProxyHops !== undefined) config.trustedProxyHops = trustedProxyHops;
  for (const key of ['clientIpHeader', 'publicUrl'] as const) {
    const value = read.optional(key);
    if (value !== undefined) config[key] = value;
  }
  withEnvNames(endpointEnvNames, () => resolveEndpointConfig(config));
  return config;
}

/**
 * Reads the relay's configuration from environment variables (`process.env`, a Worker's `env`…).
 * Throws a RelayConfigError naming the first missing or malformed variable.
 */
export function configFromEnv(env: Record<string, string | undefined>): RelayConfig {
  const read = envReader(env, envNames);
  const config: RelayConfig = {
    ...endpointConfigFromEnv(env),
    contactTo: read.required('contactTo'),
    contactFrom: read.required('contactFrom'),
    siteName: read.required('siteName'),
  };
  for (const key of ['rateLimit', 'rateLimitWindowS', 'rateLimitPerMinute', 'minFillMs'] as const) {
    const value = read.wholeNumber(key);
    if (value !== undefined) config[key] = value;
  }
  for (const key of ['ticketSecret', 'redirectUrl', 'adminSecret'] as const) {
    const value = read.optional(key);
    if (value !== undefined) config[key] = value;
  }
  const consent = consentFromEnv(env, consentEnvNames);
  if (consent) config.consent = consent;
  const outboxSettings = outboxSettingsFromEnv(env);
  if (Object.keys(outboxSettings).length > 0) config.outboxSettings = outboxSettings;
  withEnvNames({ ...envNames, ...consentEnvNames, ...outboxOptionEnvNames }, () =>
    resolveConfig(config),
  );
  return config;
}

const atLeastOne = (setting: string, value: number) => {
  if (!Number.isInteger(value) || value < 1) {
    throw new RelayConfigError(setting, 'must be a whole number of at least 1');
  }
  return value;
};

const httpUrl = (setting: string, value: string) => {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed;
  } catch {}
  throw new RelayConfigError(setting, `must be an http(s) URL, not "${value}"`);
};

/** The origin of a URL a browser reaches: https, or plain http on this machine only. */
const publicOrigin = (setting: string, value: string) => {
  const parsed = httpUrl(setting, value);
  if (parsed.href !== `${parsed.origin}/` || /[?#]/.test(value)) {
    throw new RelayConfigError(
      setting,
      `must be an origin (scheme://host[:port]) with no path, query or user info, not "${value}"`,
    );
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new RelayConfigError(
      setting,
      `must use https (plain http is allowed only for localhost and 127.0.0.1), not "${value}"`,
    );
  }
  return parsed.origin;
};

/** Applies the shared defaults and refuses a shared setting that could not work or would be unsafe. */
export function resolveEndpointConfig(config: EndpointConfig): ResolvedEndpointConfig {
  const apiUrlProblem = baseUrlProblem(config.apiUrl);
  if (apiUrlProblem) throw new RelayConfigError('apiUrl', apiUrlProblem);
  if (!config.apiToken) throw new RelayConfigError('apiToken', 'is empty');
  if (config.allowedOrigins.length === 0) throw new RelayConfigError('allowedOrigins', 'is empty');
  return {
    apiUrl: config.apiUrl,
    apiToken: config.apiToken,
    allowedOrigins: config.allowedOrigins.map((origin) => httpUrl('allowedOrigins', origin).origin),
    publicUrl:
      config.publicUrl === undefined ? undefined : publicOrigin('publicUrl', config.publicUrl),
    trustedProxyHops: atLeastOne('trustedProxyHops', config.trustedProxyHops ?? 1),
    clientIpHeader: config.clientIpHeader?.toLowerCase(),
    apiTimeoutMs: atLeastOne('apiTimeoutMs', config.apiTimeoutMs ?? 10_000),
    log: safeLog(config.log ?? ((line) => console.error(line)), config.apiToken),
    rateLimitCounter: config.rateLimitCounter,
    fetch: config.fetch,
  };
}

/** Applies defaults and refuses a configuration that could not work or would be unsafe. */
export function resolveConfig(config: RelayConfig): ResolvedRelayConfig {
  const address = (setting: string, value: string) => {
    const special = specialUseDomainOf(value);
    if (special) {
      throw new RelayConfigError(
        setting,
        `is at .${special}, a special-use domain the instance refuses (every message would fail): use another address, not "${value}"`,
      );
    }
    if (!isBareEmailAddress(value)) {
      throw new RelayConfigError(setting, `must be one email address, not "${value}"`);
    }
    return value;
  };

  const endpoint = resolveEndpointConfig(config);
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
  return {
    ...endpoint,
    contactTo: address('contactTo', config.contactTo),
    contactFrom: address('contactFrom', config.contactFrom),
    siteName: config.siteName.trim(),
    rateLimit: atLeastOne(
      config.rateLimitPerMinute !== undefined ? 'rateLimitPerMinute' : 'rateLimit',
      config.rateLimitPerMinute ?? config.rateLimit ?? contactDefaults.rateLimitCount,
    ),
    rateLimitWindowS: atLeastOne('rateLimitWindowS', rateLimitWindowS),
    minFillMs,
    ticketSecret: config.ticketSecret,
    redirectUrl: config.redirectUrl ? httpUrl('redirectUrl', config.redirectUrl).href : undefined,
    consent: resolveConsent(config.consent),
    outbox: config.outbox,
    outboxSettings: resolveOutboxSettings(config.outboxSettings, endpoint.apiTimeoutMs),
    adminSecret: adminSecret(config.adminSecret),
  };
}

/** A secret long enough that guessing it through the admin route's rate limit is hopeless. */
function adminSecret(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.length < 32 || /\s/.test(value)) {
    throw new RelayConfigError(
      'adminSecret',
      'must be at least 32 characters without spaces (e.g. the output of: openssl rand -hex 32)',
    );
  }
  return value;
}
