// One email address as the contract accepts it: `user@example.com` or `Display Name <user@example.com>`.
// Lists, CR/LF and other control characters are refused: they are how header injection starts.

const ADDR_SPEC =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const MAX_ADDRESS_LENGTH = 254;

export interface Mailbox {
  address: string;
  displayName?: string;
}

/** The mailbox written in `value`, or undefined when it is not exactly one valid address. */
export function parseMailbox(value: string): Mailbox | undefined {
  if (CONTROL_CHARACTERS.test(value)) return undefined;
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  const address = named ? (named[2] ?? '') : trimmed;
  if (address.length > MAX_ADDRESS_LENGTH || !ADDR_SPEC.test(address)) return undefined;
  if (address.split('@')[0]!.length > 64) return undefined;
  if (!named) return { address };
  const displayName = (named[1] ?? '').replace(/^"(.*)"$/, '$1').trim();
  if (/[<>,;@]/.test(displayName) && !/^".*"$/.test(named[1]?.trim() ?? '')) return undefined;
  return displayName ? { address, displayName } : { address };
}

export function isEmailAddress(value: string): boolean {
  return parseMailbox(value) !== undefined;
}

/** Exactly `user@example.com`: no display name, no surrounding space (a visitor's own address). */
export function isBareEmailAddress(value: string): boolean {
  const mailbox = parseMailbox(value);
  return mailbox !== undefined && mailbox.displayName === undefined && mailbox.address === value;
}

export function hasLineBreak(value: string): boolean {
  return /[\r\n]/.test(value);
}
