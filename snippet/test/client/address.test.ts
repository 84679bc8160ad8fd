import { describe, expect, it } from 'vitest';
import { isBareEmailAddress, isEmailAddress, parseMailbox } from '../../src/client/address.js';

describe('the contract address rule', () => {
  it.each(['ada@example.com', 'a.b+tag@sub.example.co.uk', "o'neil@example.ie"])(
    'accepts %s',
    (value) => {
      expect(isEmailAddress(value)).toBe(true);
      expect(isBareEmailAddress(value)).toBe(true);
    },
  );

  it('reads a display name with one address', () => {
    expect(parseMailbox('Ada Lovelace <ada@example.com>')).toEqual({
      address: 'ada@example.com',
      displayName: 'Ada Lovelace',
    });
    expect(parseMailbox('"Lovelace, Ada" <ada@example.com>')).toEqual({
      address: 'ada@example.com',
      displayName: 'Lovelace, Ada',
    });
    expect(isBareEmailAddress('Ada <ada@example.com>')).toBe(false);
  });

  it.each([
    ['a list', 'a@example.com, b@example.com'],
    ['a list with a display name', 'Ada <a@example.com>, b@example.com'],
    ['CR/LF', 'a@example.com\r\nBcc: b@example.com'],
    ['a NUL', 'a@example.com\u0000'],
    ['no domain dot', 'a@example'],
    ['two dots', 'a@example..com'],
    ['a hyphen-led label', 'a@-example.com'],
    ['no local part', '@example.com'],
    ['a 65-character local part', `${'a'.repeat(65)}@example.com`],
    ['an unquoted comma in the name', 'Lovelace, Ada <ada@example.com>'],
  ])('refuses %s', (_case, value) => {
    expect(isEmailAddress(value)).toBe(false);
  });
});
