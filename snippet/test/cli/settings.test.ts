// `--set key=value`: typed by the contract, an alias sent under the service's own name.
import { describe, expect, it } from 'vitest';
import { collectSetting } from '../../src/cli/settings.js';

describe('--set', () => {
  it('sends num_beams under the service’s name num_beans, never dropping it', () => {
    expect(collectSetting('num_beams=3')).toEqual({ num_beans: 3 });
    expect(collectSetting('num_beans=2', { top_k: 5 })).toEqual({ top_k: 5, num_beans: 2 });
  });

  it('checks an alias by the rule of the name it stands for, and says that name', () => {
    expect(() => collectSetting('num_beams=0')).toThrow(
      'num_beans must be a whole number of at least 1, not "0"',
    );
  });

  it('refuses an unknown key by name', () => {
    expect(() => collectSetting('num_beems=3')).toThrow('unknown setting "num_beems"');
  });
});
