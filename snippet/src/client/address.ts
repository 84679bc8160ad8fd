// One email address as the contract accepts it: `user@example.com` or `Display Name <user@example.com>`.
// The address itself follows the contract's one address rule (emailAddressPattern: ASCII
// dot-atom, lengths included); lists and control characters are refused: they are how header
// injection starts.
import {
  emailAddressPattern,
  singleLineForbiddenPattern,
  specialUseDomains,
} from './contract.generated.js';

/**
 * The special-use domain (`test`, `local`…) an address is at, which the service's validator
 * refuses, or undefined: for messages that say "use another address".
 */
export function specialUseDomainOf(address: string): string | undefined {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return specialUseDomains.find((name) => domain === name || domain.endsWith(`.${name}`));
}

export interface Mailbox {
  address: string;
  displayName?: string;
}

/** The mailbox written in `value`, or undefined when it is not exactly one valid address. */
export function parseMailbox(value: string): Mailbox | undefined {
  if (singleLineForbiddenPattern.test(value)) return undefined;
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  const address = named ? (named[2] ?? '') : trimmed;
  if (!emailAddressPattern.test(address)) return undefined;
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
