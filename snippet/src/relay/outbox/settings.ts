// The outbox's bounds and timing. Retry timing, the lifetime, the circuit breaker and the early stop
// of a failing run are the contract's (`outbox.defaults`, the same for WordPress and Drupal); the
// relay adds its caps and how long a given-up message stays visible.
import { outboxDefaults } from '../../client/index.js';
import { envReader, RelayConfigError } from '../env.js';

export interface OutboxSettings {
  /** Messages kept at most, waiting and given up together (default 1,000; 0: no outbox). */
  maxMessages?: number;
  /** Bytes kept at most, waiting and given up together (default 16 MiB; 0: no outbox). */
  maxBytes?: number;
  /** Hours after which a message still not delivered is given up (default 72). */
  lifetimeHours?: number;
  /** Days a given-up message stays visible to the owner before it is removed (default 7). */
  retentionDays?: number;
  /** Seconds before the first retry, doubled at each next one up to an hour (default 30). */
  firstRetryS?: number;
  /**
   * Milliseconds a try may stay unfinished before another relay (or this one, restarted) takes the
   * message over: the relay that took it has died mid-send (default 60,000, or the API time-out
   * plus 5 s when that is longer). Never less than that, so that a live relay's try is never
   * taken from it.
   */
  claimIdleMs?: number;
}

export type ResolvedOutboxSettings = Required<OutboxSettings> & {
  maxRetryS: number;
  retryAfterMaxS: number;
  breakerS: number;
  stopAfterSameFailures: number;
};

export const outboxEnvNames = {
  maxMessages: 'SITEBEAM_OUTBOX_MAX_MESSAGES',
  maxMebibytes: 'SITEBEAM_OUTBOX_MAX_MB',
  lifetimeHours: 'SITEBEAM_OUTBOX_LIFETIME_HOURS',
  retentionDays: 'SITEBEAM_OUTBOX_RETENTION_DAYS',
  firstRetryS: 'SITEBEAM_OUTBOX_FIRST_RETRY_S',
  claimIdleS: 'SITEBEAM_OUTBOX_CLAIM_IDLE_S',
} as const;

const MIB = 1024 * 1024;
const defaults = {
  maxMessages: 1000,
  maxBytes: 16 * MIB,
  lifetimeHours: outboxDefaults.lifetimeHours,
  retentionDays: 7,
  firstRetryS: outboxDefaults.firstRetryS,
  claimIdleMs: 60_000,
};

/** The settings given by SITEBEAM_OUTBOX_* variables (none set: an empty object, the defaults). */
export function outboxSettingsFromEnv(env: Record<string, string | undefined>): OutboxSettings {
  const read = envReader(env, outboxEnvNames);
  const settings: OutboxSettings = {};
  for (const key of ['maxMessages', 'lifetimeHours', 'retentionDays', 'firstRetryS'] as const) {
    const value = read.wholeNumber(key);
    if (value !== undefined) settings[key] = value;
  }
  const mebibytes = read.wholeNumber('maxMebibytes');
  if (mebibytes !== undefined) settings.maxBytes = mebibytes * MIB;
  const claimIdleS = read.wholeNumber('claimIdleS');
  if (claimIdleS !== undefined) settings.claimIdleMs = claimIdleS * 1000;
  return settings;
}

/** Defaults applied, every value checked; `apiTimeoutMs` bounds the claim's expiry from below. */
export function resolveOutboxSettings(
  settings: OutboxSettings = {},
  apiTimeoutMs = 10_000,
): ResolvedOutboxSettings {
  const whole = (key: keyof OutboxSettings, least: number) => {
    const value = settings[key] ?? defaults[key];
    if (!Number.isSafeInteger(value) || value < least) {
      const setting = `outbox.${key}`;
      throw new RelayConfigError(setting, `must be a whole number of at least ${least}`);
    }
    return value;
  };
  return {
    maxMessages: whole('maxMessages', 0),
    maxBytes: whole('maxBytes', 0),
    lifetimeHours: whole('lifetimeHours', 1),
    retentionDays: whole('retentionDays', 1),
    firstRetryS: whole('firstRetryS', 1),
    claimIdleMs: claimIdle(settings.claimIdleMs, apiTimeoutMs + 5_000),
    maxRetryS: outboxDefaults.maxRetryS,
    retryAfterMaxS: outboxDefaults.retryAfterMaxS,
    breakerS: outboxDefaults.breakerS,
    stopAfterSameFailures: outboxDefaults.stopAfterSameFailures,
  };
}

/** A live relay's try is never taken from it: at least its API time-out plus 5 s. */
function claimIdle(value: number | undefined, leastMs: number): number {
  if (value === undefined) return Math.max(defaults.claimIdleMs, leastMs);
  if (!Number.isSafeInteger(value) || value < leastMs) {
    throw new RelayConfigError(
      'outbox.claimIdleMs',
      `must be at least ${Math.ceil(leastMs / 1000)} s (the API time-out plus 5 s)`,
    );
  }
  return value;
}

/** The environment variable behind each option, for a refusal that names it. */
export const outboxOptionEnvNames: Record<string, string> = {
  'outbox.maxMessages': outboxEnvNames.maxMessages,
  'outbox.maxBytes': outboxEnvNames.maxMebibytes,
  'outbox.lifetimeHours': outboxEnvNames.lifetimeHours,
  'outbox.retentionDays': outboxEnvNames.retentionDays,
  'outbox.firstRetryS': outboxEnvNames.firstRetryS,
  'outbox.claimIdleMs': outboxEnvNames.claimIdleS,
};
