// The fill-time ticket (contract/contact-protocol.md): `<issued_ms>.<sig>`, the signature an
// HMAC-SHA256 of the issue time with a secret that never leaves the relay. Web Crypto only, so
// the relay stays runnable on Workers and Deno.
import { contactDefaults, contactTicket } from '../form/protocol.js';

export type TicketVerdict = 'valid' | 'malformed' | 'forged' | 'too_fresh' | 'expired';

export interface TicketIssuer {
  issue(now: number): Promise<string>;
  check(ticket: unknown, now: number): Promise<TicketVerdict>;
}

const encoder = new TextEncoder();
const TICKET = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

const hmacKey = (secret: BufferSource) =>
  crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

/**
 * The key tickets are signed with: the configured secret, else one derived from the API token
 * (never the token itself), the same in every instance of the relay.
 */
export async function ticketKey(secret: string | undefined, apiToken: string): Promise<CryptoKey> {
  if (secret !== undefined) return hmacKey(encoder.encode(secret));
  const tokenKey = await hmacKey(encoder.encode(apiToken));
  return hmacKey(await crypto.subtle.sign('HMAC', tokenKey, encoder.encode(DERIVATION)));
}

const DERIVATION = 'sitebeam relay: contact ticket key';

export function createTicketIssuer(
  key: Promise<CryptoKey>,
  minFillMs: number,
  maxAgeMs = contactDefaults.ticketMaxAgeS * 1000,
): TicketIssuer {
  const payload = (issued: string) => encoder.encode(`${contactTicket.hmacPrefix}${issued}`);
  return {
    async issue(now) {
      const issued = String(Math.floor(now));
      const signature = await crypto.subtle.sign('HMAC', await key, payload(issued));
      return `${issued}.${base64url(new Uint8Array(signature))}`;
    },
    async check(ticket, now) {
      const match = typeof ticket === 'string' ? TICKET.exec(ticket) : null;
      if (!match) return 'malformed';
      const [, issued = '', signature = ''] = match;
      const bytes = fromBase64url(signature);
      if (!(await crypto.subtle.verify('HMAC', await key, bytes, payload(issued)))) return 'forged';
      const age = now - Number(issued);
      if (age < -contactDefaults.ticketMaxSkewMs) return 'too_fresh';
      if (age < minFillMs) return 'too_fresh';
      return age > maxAgeMs ? 'expired' : 'valid';
    },
  };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
