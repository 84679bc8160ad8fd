// Server-side rendering imports the ESM build on Node, where there is no window.
import { describe, expect, it } from 'vitest';
import { init, track } from '../../src/tracker/index.js';

describe('the ESM build on a server', () => {
  it('imports, ignores init() and resolves track() to undefined', async () => {
    expect(typeof window).toBe('undefined');
    expect(() => init({ api: 'https://api.instance.example' })).not.toThrow();
    await expect(track()).resolves.toBeUndefined();
  });
});
