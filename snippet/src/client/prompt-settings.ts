// The prompt settings' types as the contract gives them, checked the same way wherever a setting
// comes from: the relay's configuration (JSON values) and the command line (`--set key=value`).
import {
  booleanSettings,
  integerSettings,
  positiveNumberSettings,
  promptSettingAliases,
} from './contract.generated.js';

export const promptSettingKeys: readonly string[] = [
  ...integerSettings,
  ...positiveNumberSettings,
  ...booleanSettings,
];

const isOneOf = (names: readonly string[], key: string) => names.includes(key);

/** What is wrong with `value` for the setting `key` (`must be true or false`), or undefined. */
export function promptSettingProblem(key: string, value: unknown): string | undefined {
  if (isOneOf(integerSettings, key)) {
    return Number.isInteger(value) && (value as number) >= 1
      ? undefined
      : 'must be a whole number of at least 1';
  }
  if (isOneOf(positiveNumberSettings, key)) {
    return typeof value === 'number' && value > 0 && Number.isFinite(value)
      ? undefined
      : 'must be a number above 0';
  }
  if (isOneOf(booleanSettings, key)) {
    return typeof value === 'boolean' ? undefined : 'must be true or false';
  }
  const serviceName = promptSettingAliases[key as keyof typeof promptSettingAliases];
  if (serviceName) return `is spelled ${serviceName} by the service: write ${serviceName}`;
  return `is not a prompt setting (known: ${promptSettingKeys.join(', ')})`;
}

/**
 * The typed value `text` stands for as the setting `key`: a number for a numeric setting written
 * as one (digits only for a whole number), true or false for a boolean; else `text` itself, which
 * promptSettingProblem then refuses.
 */
export function promptSettingFromText(key: string, text: string): unknown {
  if (isOneOf(integerSettings, key)) return /^\d+$/.test(text) ? Number(text) : text;
  if (isOneOf(positiveNumberSettings, key)) return text.trim() === '' ? text : Number(text);
  if (isOneOf(booleanSettings, key) && (text === 'true' || text === 'false')) {
    return text === 'true';
  }
  return text;
}
