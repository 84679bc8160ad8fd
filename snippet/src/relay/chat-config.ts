// What the relay's /chat endpoint needs beyond the contact settings: the models a visitor may
// use and the prompt settings the site owner fixed, from an object or from environment variables.

import { chatDefaults } from '../chat/protocol.js';
import type { PromptSettings } from '../client/index.js';
import { promptSettingProblem } from '../client/prompt-settings.js';
import { type ConsentConfig, consentFromEnv, resolveConsent } from './consent.js';
import { envReader, RelayConfigError, withEnvNames } from './env.js';

export interface ChatConfig {
  /** The models a visitor may prompt, the first being the default; empty turns the chat off. */
  models: string[];
  /** Sent with every prompt; a visitor never sets them. */
  settings?: PromptSettings;
  /** Prompts a visitor may send per minute (default 10). */
  rateLimitPerMinute?: number;
  /**
   * Messages the whole relay sends to the model per UTC day, all visitors together, counted in
   * the endpoint's `rateLimitCounter` when it has one (default 500; 0: no cap).
   */
  dailyLimit?: number;
  /** The consent checkbox a visitor must tick before a message is sent (default: none). */
  consent?: ConsentConfig;
}

export type ResolvedChatConfig = Required<Omit<ChatConfig, 'consent'>> &
  Pick<ChatConfig, 'consent'>;

/**
 * The daily chat limit of a relay that sets none: a new relay is never an open model proxy on the
 * owner's quota. No cap (0) is a choice the owner makes on purpose.
 */
export const defaultChatDailyLimit = chatDefaults.dailyLimit;

const envNames = {
  models: 'SITEBEAM_CHAT_MODELS',
  settings: 'SITEBEAM_CHAT_SETTINGS',
  rateLimitPerMinute: 'SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE',
  dailyLimit: 'SITEBEAM_CHAT_DAILY_LIMIT',
} as const;

const consentEnvNames = {
  'consent.label': 'SITEBEAM_CHAT_CONSENT',
  'consent.policyUrl': 'SITEBEAM_CHAT_CONSENT_URL',
} as const;

/** The chat settings from environment variables; without SITEBEAM_CHAT_MODELS the chat is off. */
export function chatConfigFromEnv(env: Record<string, string | undefined>): ChatConfig {
  const read = envReader(env, envNames);
  const config: ChatConfig = {
    models: (read.optional('models') ?? '').split(/[\s,]+/).filter(Boolean),
  };
  const settings = read.optional('settings');
  if (settings) {
    try {
      config.settings = JSON.parse(settings);
    } catch {
      throw new RelayConfigError(envNames.settings, 'must be a JSON object');
    }
  }
  const rateLimitPerMinute = read.wholeNumber('rateLimitPerMinute');
  if (rateLimitPerMinute !== undefined) config.rateLimitPerMinute = rateLimitPerMinute;
  const dailyLimit = read.wholeNumber('dailyLimit');
  if (dailyLimit !== undefined) config.dailyLimit = dailyLimit;
  const consent = consentFromEnv(env, consentEnvNames);
  if (consent) config.consent = consent;
  withEnvNames({ ...envNames, ...consentEnvNames }, () => resolveChatConfig(config));
  return config;
}

/** Applies defaults and refuses settings the API would refuse on every prompt. */
export function resolveChatConfig(config: ChatConfig): ResolvedChatConfig {
  const rateLimitPerMinute = config.rateLimitPerMinute ?? chatDefaults.rateLimitCount;
  if (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1) {
    throw new RelayConfigError('rateLimitPerMinute', 'must be a whole number of at least 1');
  }
  const dailyLimit = config.dailyLimit ?? defaultChatDailyLimit;
  if (!Number.isInteger(dailyLimit) || dailyLimit < 0) {
    throw new RelayConfigError('dailyLimit', 'must be a whole number (0: no limit)');
  }
  for (const model of config.models) {
    if (!/^[\w.-]+$/.test(model)) {
      throw new RelayConfigError('models', `holds "${model}", which is not a model identifier`);
    }
  }
  return {
    models: [...new Set(config.models)],
    settings: checkedSettings(config.settings ?? {}),
    rateLimitPerMinute,
    dailyLimit,
    ...(config.consent === undefined ? {} : { consent: resolveConsent(config.consent) }),
  };
}

function checkedSettings(settings: unknown): PromptSettings {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new RelayConfigError('settings', 'must be a JSON object');
  }
  for (const [key, value] of Object.entries(settings)) {
    const problem = promptSettingProblem(key, value);
    if (problem) throw new RelayConfigError('settings', `${key} ${problem}`);
  }
  return settings as PromptSettings;
}
