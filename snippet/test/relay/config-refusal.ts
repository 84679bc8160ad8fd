// What a relay's configuration is refused with: the tests of each setting read its words.
import { expect } from 'vitest';
import { RelayConfigError } from '../../src/relay/index.js';

/** The message of the RelayConfigError `read` throws; the test fails should `read` accept. */
export function refusalOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayConfigError);
    return (error as RelayConfigError).message;
  }
  throw new Error('the configuration was accepted');
}
