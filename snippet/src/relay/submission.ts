// A visitor's post: read the body (JSON or form-encoded) and apply the protocol's rules one by one
// (contract/contact-protocol.md, "The rules, in the order they are applied").
import { isBareEmailAddress, specialUseDomainOf } from '../client/address.js';
import { readCappedBody } from '../client/capped-body.js';
import {
  type ContactErrorCode,
  contactErrorCodes,
  contactFields,
  contactLimits,
  multiLineForbiddenPattern,
  singleLineForbiddenPattern,
} from '../form/protocol.js';

export interface Submission {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export interface Refusal {
  code: ContactErrorCode;
  /** Text a visitor may read. */
  error: string;
  field?: string;
}

export type BodyKind = 'json' | 'form';

/** What a field held that cannot be text: a value the rules refuse naming the field. */
const NOT_UNICODE = Symbol('not valid Unicode');

export function bodyKind(contentType: string | null): BodyKind | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

/** The body's bytes, or a refusal once it grows past `maxBytes` (read no further). */
export async function readBody(
  request: Request,
  maxBytes: number = contactLimits.bodyMaxBytes,
): Promise<Uint8Array | Refusal> {
  const tooLarge: Refusal = {
    code: contactErrorCodes.payloadTooLarge,
    error: `The message is too large (more than ${maxBytes / 1024} KiB).`,
  };
  return (await readCappedBody(request, maxBytes)) ?? tooLarge;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** The posted fields by name; a value that is not text stays as it came, for the rules to refuse. */
export function parseFields(kind: BodyKind, bytes: Uint8Array): Record<string, unknown> | Refusal {
  return kind === 'form' ? parseForm(lenientUtf8.decode(bytes)) : parseJson(bytes);
}

function parseForm(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const [rawName = '', ...rest] = pair.split('=');
    const name = percentDecode(rawName);
    if (typeof name === 'string' && !(name in fields)) fields[name] = percentDecode(rest.join('='));
  }
  return fields;
}

function percentDecode(text: string): string | typeof NOT_UNICODE {
  const bytes: number[] = [];
  for (const part of text.replace(/\+/g, ' ').split(/(%[0-9A-Fa-f]{2})/)) {
    if (/^%[0-9A-Fa-f]{2}$/.test(part)) bytes.push(Number.parseInt(part.slice(1), 16));
    else bytes.push(...encoder.encode(part));
  }
  try {
    return strictUtf8.decode(new Uint8Array(bytes));
  } catch {
    return NOT_UNICODE;
  }
}

function parseJson(bytes: Uint8Array): Record<string, unknown> | Refusal {
  let value: unknown;
  try {
    value = JSON.parse(lenientUtf8.decode(bytes));
  } catch {
    return unreadable;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return unreadable;
  const fields = value as Record<string, unknown>;
  let valid = true;
  try {
    strictUtf8.decode(bytes);
  } catch {
    valid = false;
  }
  for (const [name, field] of Object.entries(fields)) {
    // The lenient decoder turned invalid bytes into U+FFFD; a lone surrogate came from an escape.
    const broken = !valid && typeof field === 'string' && field.includes('\ufffd');
    if (broken || (typeof field === 'string' && !isWellFormed(field))) fields[name] = NOT_UNICODE;
  }
  return fields;
}

const isWellFormed = (text: string) => !/\p{Surrogate}/u.test(text);

const unreadable: Refusal = {
  code: contactErrorCodes.invalidField,
  error: 'The form data could not be read.',
};

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'code' in value && 'error' in value;
}

/** A filled honeypot: the sign of an automated post. The answer does not say which sign. */
export function honeypotFilled(fields: Record<string, unknown>): boolean {
  const honeypot = fields[contactFields.honeypot];
  return honeypot !== undefined && honeypot !== '';
}

/** The visitor's four fields, each checked against its rule; the first field at fault is named. */
export function checkFields(fields: Record<string, unknown>): Submission | Refusal {
  const refuse = (field: string, problem: string): Refusal => ({
    code: contactErrorCodes.invalidField,
    error: `${label[field]} ${problem}`,
    field,
  });
  const text = (field: string, required: boolean, maxChars: number, multiLine: boolean) => {
    const value = fields[field] ?? '';
    if (value === NOT_UNICODE) return refuse(field, 'is not valid text (UTF-8).');
    if (typeof value !== 'string') return refuse(field, 'must be text.');
    const forbidden = multiLine ? multiLineForbiddenPattern : singleLineForbiddenPattern;
    if (forbidden.test(value)) {
      return refuse(
        field,
        multiLine
          ? 'holds a control character.'
          : 'must fit on one line, without control characters.',
      );
    }
    const trimmed = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    if (required && !trimmed) return refuse(field, 'is required.');
    if ([...trimmed].length > maxChars) {
      return refuse(field, `must be at most ${maxChars.toLocaleString('en')} characters.`);
    }
    return trimmed;
  };

  const name = text(contactFields.name, true, contactLimits.nameMaxChars, false);
  if (isRefusal(name)) return name;
  const email = text(contactFields.email, true, contactLimits.emailMaxChars, false);
  if (isRefusal(email)) return email;
  if (!isBareEmailAddress(email)) {
    const special = specialUseDomainOf(email);
    return refuse(
      contactFields.email,
      special
        ? `cannot be at .${special}, a name reserved for local use: use another address.`
        : 'is not a valid email address.',
    );
  }
  const subject = text(contactFields.subject, false, contactLimits.subjectMaxChars, false);
  if (isRefusal(subject)) return subject;
  const message = text(contactFields.message, true, contactLimits.messageMaxChars, true);
  if (isRefusal(message)) return message;
  return { name, email, subject, message };
}

const label: Record<string, string> = {
  [contactFields.name]: 'Name',
  [contactFields.email]: 'Email',
  [contactFields.subject]: 'Subject',
  [contactFields.message]: 'Message',
};
