// `--set key=value` for prompts: each value typed as the contract says for its key.
import { InvalidArgumentError } from 'commander';
import { type PromptSettings, promptSettingAliases } from '../client/index.js';
import {
  promptSettingFromText,
  promptSettingKeys,
  promptSettingProblem,
} from '../client/prompt-settings.js';

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

function typedValue(key: string, text: string): number | boolean {
  if (!promptSettingKeys.includes(key)) {
    throw new InvalidArgumentError(
      `unknown setting "${key}": one of ${promptSettingKeys.join(', ')}`,
    );
  }
  const value = promptSettingFromText(key, text);
  const problem = promptSettingProblem(key, value);
  if (problem) throw new InvalidArgumentError(`${key} ${problem}, not "${text}"`);
  return value as number | boolean;
}
