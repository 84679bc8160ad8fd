import { describe, expect, it } from 'vitest';
import { visibleControls, visibleJson } from '../../src/client/index.js';

describe('visibleControls', () => {
  it('shows escape sequences and control characters as text, keeping tabs and line breaks', () => {
    expect(visibleControls('\x1B]0;owned\x07\x1B[2Jred\x1B[31m\tok\nnext\r\0')).toBe(
      '\\e]0;owned\\x07\\e[2Jred\\e[31m\tok\nnext\\r\\x00',
    );
  });

  it('shows C1, DEL, separators and bidirectional controls', () => {
    expect(visibleControls('\x9B2J\x7F\u2028\u202Eevil')).toBe(
      '\\x9b2J\\x7f\\u{2028}\\u{202e}evil',
    );
  });

  it('with oneLine, shows line breaks too', () => {
    expect(visibleControls('a\nb\r\nc\td', { oneLine: true })).toBe('a\\nb\\r\\nc\td');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(visibleControls('Café 😀 <b> & "x"')).toBe('Café 😀 <b> & "x"');
  });
});

describe('visibleJson', () => {
  it('is still JSON, with every control escaped', () => {
    const text = '{"a":"\\u001b[2J\\u009b","b":"\u202E\u0085"}';
    const safe = visibleJson(text) as string;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: none may be left.
    expect(safe).not.toMatch(/[\x00-\x1F\x7F-\x9F\u202E]/);
    expect(JSON.parse(safe)).toEqual(JSON.parse(text));
  });

  it('is undefined for what is not JSON', () => {
    expect(visibleJson('<html>')).toBeUndefined();
  });
});
