// `sitebeam email --to ADDR --subject TEXT …`: one message, its body from --content,
// --content-file or standard input, plain text unless --html.
import { readFile } from 'node:fs/promises';
import { type EmailMessage, hasLineBreak, limits, specialUseDomainOf } from '../../client/index.js';
import { escapeHtml } from '../../relay/index.js';
import { formatBytes, readAttachment } from '../attachment.js';
import { usageError } from '../exit-codes.js';
import type { Session } from '../session.js';
import { readStandardInput } from '../standard-input.js';

export interface EmailOptions {
  to: string;
  subject: string;
  from?: string;
  bcc?: string;
  cc?: string;
  replyTo?: string;
  html?: boolean;
  content?: string;
  contentFile?: string;
  attach?: string;
}

export async function sendEmail(session: Session, options: EmailOptions): Promise<void> {
  const message = await composeMessage(options);
  const bytes = Buffer.byteLength(JSON.stringify(message));
  if (bytes > limits.bodyBytes) {
    throw usageError(
      `the message is ${formatBytes(bytes)} as JSON; the API accepts up to ${formatBytes(limits.bodyBytes)}`,
    );
  }
  const { client } = await session.connect(true);
  const sent = await client.sendEmail(message);
  const attached = message.attachment
    ? ` with ${message.attachment.file_name} (${message.attachment.mime_type})`
    : '';
  // The service answers without an id: say only what it said.
  session.answer(`Sent to ${message.to}${attached}${sent.id ? `: id ${sent.id}` : ''}`);
}

async function composeMessage(options: EmailOptions): Promise<EmailMessage> {
  const singleLine: Array<[string, string | undefined]> = [
    ['--to', options.to],
    ['--subject', options.subject],
    ['--from', options.from],
    ['--bcc', options.bcc],
    ['--cc', options.cc],
    ['--reply-to', options.replyTo],
  ];
  for (const [flag, value] of singleLine) {
    if (value !== undefined && hasLineBreak(value)) throw usageError(`${flag} must be one line`);
  }
  for (const [flag, value] of singleLine.filter(([flag]) => flag !== '--subject')) {
    const special = value === undefined ? undefined : specialUseDomainAddress(value);
    if (special) {
      throw usageError(
        `${flag} ${special.address} is at .${special.domain}, a name reserved for local use that the instance refuses: use another address`,
      );
    }
  }
  const subjectCharacters = [...options.subject].length;
  if (subjectCharacters === 0 || subjectCharacters > limits.subjectChars) {
    throw usageError(`--subject must have 1 to ${limits.subjectChars} characters`);
  }
  const text = await readBody(options);
  const message: EmailMessage = {
    to: options.to,
    subject: options.subject,
    content: options.html ? text : textToHtml(text),
  };
  if (options.from !== undefined) message.from = options.from;
  if (options.bcc !== undefined) message.bcc = options.bcc;
  if (options.cc !== undefined) message.cc = options.cc;
  if (options.replyTo !== undefined) message.replyto = options.replyTo;
  if (options.attach !== undefined) message.attachment = await readAttachment(options.attach);
  return message;
}

/**
 * The first address of `value` (one address, `Name <address>`, or a comma-separated list) at a
 * special-use domain (`.test`, `.local`…), which the contract's address rule refuses: the instance
 * would answer 422 to the whole message, so it is refused before any call, as the relay and the
 * form widget do.
 */
function specialUseDomainAddress(value: string): { address: string; domain: string } | undefined {
  for (const part of value.split(',')) {
    const address = (/<([^<>]*)>\s*$/.exec(part)?.[1] ?? part).trim();
    const domain = address.includes('@') ? specialUseDomainOf(address) : undefined;
    if (domain) return { address, domain };
  }
  return undefined;
}

async function readBody(options: EmailOptions): Promise<string> {
  if (options.content !== undefined) return options.content;
  if (options.contentFile !== undefined) {
    try {
      return await readFile(options.contentFile, 'utf8');
    } catch {
      throw usageError(`--content-file ${options.contentFile} cannot be read`);
    }
  }
  return readStandardInput('Type the message, then Ctrl-D on a line of its own:');
}

/** The API's `content` is HTML: plain text is escaped, its line breaks kept. */
function textToHtml(text: string): string {
  return `<div style="white-space:pre-wrap">${escapeHtml(text)}</div>`;
}
