// Where profiles live on each platform (Windows is not run here, so its rule is checked alone).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profilesPath } from '../../src/cli/profiles.js';

describe('profilesPath', () => {
  it('follows $XDG_CONFIG_HOME, else ~/.config', () => {
    expect(profilesPath({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/sitebeam/profiles.json');
    expect(profilesPath({}, 'darwin')).toBe(
      join(homedir(), '.config', 'sitebeam', 'profiles.json'),
    );
    expect(profilesPath({ XDG_CONFIG_HOME: '' }, 'linux')).toBe(
      join(homedir(), '.config', 'sitebeam', 'profiles.json'),
    );
  });

  it('uses %APPDATA% on Windows', () => {
    expect(profilesPath({ APPDATA: '/appdata' }, 'win32')).toBe(
      join('/appdata', 'sitebeam', 'profiles.json'),
    );
  });
});
