// A visitor's post: read the body (JSON or form-encoded) and apply the protocol's rules one by one.
import { hasLineBreak, isBareEmailAddress } from '../client/address.js';
import {
  type ContactErrorCode,
  contactErrorCodes,
  contactFields,
  contactLimits,
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

export function bodyKind(contentType: string | null): BodyKind | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

/** The body as text, or a refusal once it grows past `maxBytes` (the contact protocol's limit). */
export async function readBody(
  request: Request,
  maxBytes: number = contactLimits.bodyMaxBytes,
): Promise<string | Refusal> {
  const tooLarge: Refusal = {
    code: contactErrorCodes.payloadTooLarge,
    error: `The message is too large (more than ${maxBytes / 1024} KiB).`,
  };
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) return tooLarge;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return tooLarge;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The posted fields by name; a value that is not text stays as it came, for the rules to refuse. */
export function parseFields(kind: BodyKind, text: string): Record<string, unknown> | Refusal {
  if (kind === 'form') return Object.fromEntries(new URLSearchParams(text));
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {}
  return { code: contactErrorCodes.invalidField, error: 'The form data could not be read.' };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'code' in value && 'error' in value;
}

/** A filled honeypot: the sign of an automated post. */
export function spamSign(fields: Record<string, unknown>): Refusal | undefined {
  const refusal: Refusal = {
    code: contactErrorCodes.spamSuspected,
    error: 'The message looks automated and was not sent. Please wait a few seconds and try again.',
  };
  const honeypot = fields[contactFields.honeypot];
  return honeypot !== undefined && honeypot !== '' ? refusal : undefined;
}

/** The visitor's four fields, each checked against its rule; the first field at fault is named. */
export function checkFields(fields: Record<string, unknown>): Submission | Refusal {
  const refuse = (field: string, problem: string): Refusal => ({
    code: contactErrorCodes.invalidField,
    error: `${label[field]} ${problem}`,
    field,
  });
  const text = (field: string, required: boolean, maxChars: number, oneLine: boolean) => {
    const value = fields[field] ?? '';
    if (typeof value !== 'string') return refuse(field, 'must be text.');
    const trimmed = value.trim();
    if (required && !trimmed) return refuse(field, 'is required.');
    if ([...trimmed].length > maxChars) {
      return refuse(field, `must be at most ${maxChars.toLocaleString('en')} characters.`);
    }
    if (oneLine && hasLineBreak(value)) return refuse(field, 'must fit on one line.');
    return trimmed;
  };

  const name = text(contactFields.name, true, contactLimits.nameMaxChars, true);
  if (isRefusal(name)) return name;
  const email = text(contactFields.email, true, contactLimits.emailMaxChars, true);
  if (isRefusal(email)) return email;
  if (!isBareEmailAddress(email))
    return refuse(contactFields.email, 'is not a valid email address.');
  const subject = text(contactFields.subject, false, contactLimits.subjectMaxChars, true);
  if (isRefusal(subject)) return subject;
  const message = text(contactFields.message, true, contactLimits.messageMaxChars, false);
  if (isRefusal(message)) return message;
  return { name, email, subject, message };
}

const label: Record<string, string> = {
  [contactFields.name]: 'Name',
  [contactFields.email]: 'Email',
  [contactFields.subject]: 'Subject',
  [contactFields.message]: 'Message',
};
