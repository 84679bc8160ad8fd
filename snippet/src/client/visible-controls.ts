// Text that came from an instance, made harmless for a terminal or a log line: control characters
// and escape sequences are shown as text (`\e[2J`, `\x07`) instead of acting on the screen.

// C0 controls but TAB and LF, DEL, C1, the line and paragraph separators, and the bidirectional
// controls, which reorder what a reader sees.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const controls = /[\x00-\x08\x0A-\x1F\x7F-\x9F\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const named: Record<string, string> = { '\x1B': '\\e', '\r': '\\r', '\n': '\\n' };

/**
 * `text` with every control character written as an escape; line breaks are kept, or shown as
 * `\n` with `oneLine` (a log line per event).
 */
export function visibleControls(text: string, options: { oneLine?: boolean } = {}): string {
  return text.replace(controls, (character) => {
    if (character === '\n' && !options.oneLine) return character;
    const code = character.codePointAt(0) as number;
    const hex = code.toString(16).padStart(2, '0');
    return named[character] ?? (code <= 0xff ? `\\x${hex}` : `\\u{${hex}}`);
  });
}

/**
 * A JSON text re-written so that no control character is left raw in it (`\u001b`, also for the
 * C1 and bidirectional controls JSON.stringify leaves as they are); undefined when not JSON.
 */
export function visibleJson(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return JSON.stringify(value).replace(
    controls,
    (character) => `\\u${(character.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}
