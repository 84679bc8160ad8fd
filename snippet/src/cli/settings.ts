// `--set key=value` for prompts: each value typed as the contract says for its key.
import { InvalidArgumentError } from 'commander';
import {
  booleanSettings,
  integerSettings,
  type PromptSettings,
  positiveNumberSettings,
  promptSettingAliases,
} from '../client/index.js';

const knownKeys: readonly string[] = [
  ...integerSettings,
  ...positiveNumberSettings,
  ...booleanSettings,
];

/** Commander's option parser: adds one `key=value` to the settings gathered so far. */
export function collectSetting(text: string, settings: PromptSettings = {}): PromptSettings {
  const equals = text.indexOf('=');
  if (equals < 1) throw new InvalidArgumentError(`expected key=value, not "${text}"`);
  const given = text.slice(0, equals);
  // An alias (num_beams) is sent under the service's own name (num_beans).
  const key: string = promptSettingAliases[given as keyof typeof promptSettingAliases] ?? given;
  const value = text.slice(equals + 1);
  return { ...settings, [key]: typedValue(key, value) };
}

function typedValue(key: string, value: string): number | boolean {
  if ((integerSettings as readonly string[]).includes(key)) {
    if (!/^\d+$/.test(value) || Number(value) < 1) {
      throw new InvalidArgumentError(`${key} must be a whole number of at least 1, not "${value}"`);
    }
    return Number(value);
  }
  if ((positiveNumberSettings as readonly string[]).includes(key)) {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
      throw new InvalidArgumentError(`${key} must be a number above 0, not "${value}"`);
    }
    return number;
  }
  if ((booleanSettings as readonly string[]).includes(key)) {
    if (value !== 'true' && value !== 'false') {
      throw new InvalidArgumentError(`${key} must be true or false, not "${value}"`);
    }
    return value === 'true';
  }
  throw new InvalidArgumentError(`unknown setting "${key}": one of ${knownKeys.join(', ')}`);
}
