/**
 * A comma-separated list of names as one anchored RegExp: `*` matches any characters, a comma
 * separates names, spaces are dropped; every other non-word character is escaped, which is safe
 * because paths and query parameter names are ASCII (percent-encoded).
 */
export const listPattern = (list: string): RegExp =>
  RegExp(
    `^(${list
      .replace(/\W/g, '\\$&')
      .replace(/\\\*/g, '.*')
      .replace(/\\,/g, '|')
      .replace(/\\ /g, '')})$`,
  );
