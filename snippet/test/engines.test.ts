// Every installed package supports the Node the repository declares and runs on, so `npm install`
// prints no EBADENGINE warning (cookie@2 through fastify's light-my-request wanted Node 22: the
// root package.json's overrides pin a release that supports Node 20).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const lock: { packages: Record<string, { version?: string; engines?: { node?: string } }> } =
  read('package-lock.json');

describe('engines', () => {
  it('every workspace declares the Node it needs, and the repository runs on it', () => {
    for (const path of [
      'package.json',
      'snippet/package.json',
      'server-stub/package.json',
      'wordpress-plugin/package.json',
    ]) {
      const range = read(path).engines?.node;
      expect(range, path).toBe('>=20');
      expect(semver.satisfies(process.version, range)).toBe(true);
    }
  });

  it('no locked package asks for a Node newer than the one running the tests', () => {
    const unsupported = Object.entries(lock.packages)
      .filter(
        ([, entry]) =>
          entry.engines?.node && !semver.satisfies(process.version, entry.engines.node),
      )
      .map(([path, entry]) => `${path}@${entry.version} wants node ${entry.engines?.node}`);
    expect(unsupported).toEqual([]);
  });
});
