import { SitebeamApiError } from 'sitebeam/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CapturedEmail } from '../src/context.js';
import {
  DEV_EMAIL,
  expectContractError,
  expectValidationFailure,
  startTestStub,
  UUID_V4,
  useTestStub,
} from './helpers.js';

const stub = useTestStub();
beforeEach(() => stub.request('/__stub/emails', { method: 'DELETE' }));

const capturedEmails = async () =>
  ((await (await stub.request('/__stub/emails')).json()) as { emails: CapturedEmail[] }).emails;

describe('POST /v1/email', () => {
  it('accepts a message, answers as the service does (no id) and captures it with the account address as default sender', async () => {
    const sent = await stub.client.sendEmail({
      to: 'owner@example.com',
      subject: 'Hello',
      content: '<p>Hi</p>',
    });
    expect(sent).toEqual({ status: 'ok', adapter: 'log', response: '' });
    const [email] = await capturedEmails();
    expect(email?.id).toMatch(UUID_V4);
    expect(email).toMatchObject({
      account: DEV_EMAIL,
      message: { to: 'owner@example.com', subject: 'Hello', content: '<p>Hi</p>', from: DEV_EMAIL },
    });
    expect(Date.parse(email?.received_at ?? '')).not.toBeNaN();
  });

  it('records bcc, the extensions cc / replyto / from_name, and an attachment', async () => {
    const attachment = {
      mime_type: 'application/pdf',
      file_name: 'report.pdf',
      b64: Buffer.from('%PDF-1.4').toString('base64'),
    };
    await stub.client.sendEmail({
      to: 'a@example.com',
      subject: 'All fields',
      from: 'Sender <sender@example.com>',
      bcc: 'hidden@example.com',
      cc: 'copy@example.com',
      replyto: 'visitor@example.org',
      from_name: 'Example Site',
      attachment,
    });
    const [email] = await capturedEmails();
    expect(email?.message).toMatchObject({
      bcc: 'hidden@example.com',
      cc: 'copy@example.com',
      replyto: 'visitor@example.org',
      from_name: 'Example Site',
      from: 'Sender <sender@example.com>',
      attachment,
    });
    const download = await stub.request(`/__stub/emails/${email?.id}/attachment`);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('%PDF-1.4');
  });

  it('ignores unknown fields', async () => {
    const response = await stub.postJson('/v1/email', {
      to: 'a@example.com',
      subject: 's',
      colour: 'blue',
    });
    expect(response.status).toBe(200);
  });

  it('accepts an empty content', async () => {
    expect(
      (await stub.postJson('/v1/email', { to: 'a@example.com', subject: 's', content: '' })).status,
    ).toBe(200);
  });

  /** A message that is valid but for its attachment. */
  const withAttachment = (attachment: Record<string, string>) => ({
    to: 'a@example.com',
    subject: 's',
    attachment,
  });
  const invalid: Array<[string, unknown, RegExp]> = [
    ['missing to', { subject: 's' }, /^to: field required/],
    ['missing subject', { to: 'a@example.com' }, /^subject: field required/],
    ['empty subject', { to: 'a@example.com', subject: '' }, /^subject:/],
    ['subject over 998 characters', { to: 'a@example.com', subject: 'x'.repeat(999) }, /^subject:/],
    [
      'CR/LF in the subject',
      { to: 'a@example.com', subject: 'Hi\r\nBcc: victim@example.com' },
      /^subject: must not contain a line break/,
    ],
    [
      'two recipients',
      { to: 'a@example.com, b@example.com', subject: 's' },
      /^to: value is not a valid email address/,
    ],
    ['a header in an address', { to: 'a@example.com\r\nBcc: x@example.com', subject: 's' }, /^to:/],
    ['a bad address', { to: 'not-an-address', subject: 's' }, /^to:/],
    ['a bad bcc', { to: 'a@example.com', bcc: 'x@', subject: 's' }, /^bcc:/],
    ['a bad cc', { to: 'a@example.com', cc: 'a@example.com;b@example.com', subject: 's' }, /^cc:/],
    ['a bad replyto', { to: 'a@example.com', replyto: 'nobody', subject: 's' }, /^replyto:/],
    [
      'a number as subject',
      { to: 'a@example.com', subject: 42 },
      /^subject: value is not a valid string/,
    ],
    ['content as an object', { to: 'a@example.com', subject: 's', content: {} }, /^content:/],
    ['a JSON array', [], /^body: value is not a valid object/],
    ['JSON null', 'null', /^body:/],
    [
      'an attachment without b64',
      withAttachment({ mime_type: 'text/plain', file_name: 'a.txt' }),
      /^attachment\.b64: field required/,
    ],
    [
      'a file name with a slash',
      withAttachment({ mime_type: 'text/plain', file_name: '../etc/passwd', b64: 'eA==' }),
      /^attachment\.file_name:/,
    ],
    [
      'a file name with a control character',
      withAttachment({ mime_type: 'text/plain', file_name: 'a\u0007.txt', b64: 'eA==' }),
      /^attachment\.file_name:/,
    ],
    [
      'a media type without subtype',
      withAttachment({ mime_type: 'pdf', file_name: 'a.pdf', b64: 'eA==' }),
      /^attachment\.mime_type:/,
    ],
    [
      'invalid base64',
      withAttachment({ mime_type: 'text/plain', file_name: 'a.txt', b64: 'not base64!' }),
      /^attachment\.b64: is not valid base64/,
    ],
    [
      'a prototype-poisoning body',
      '{"to":"a@example.com","subject":"s","__proto__":{"admin":true}}',
      /^body:/,
    ],
  ];
  it.each(invalid)(
    'refuses %s with 422 naming the field, as the service does',
    async (_case, body, message) => {
      expect(await expectValidationFailure(await stub.postJson('/v1/email', body))).toMatch(
        message,
      );
      expect(await capturedEmails()).toHaveLength(0);
    },
  );

  it('refuses a body that is not JSON (422) and one that is not declared as JSON (415)', async () => {
    expect(await expectValidationFailure(await stub.postJson('/v1/email', '{"to": '))).toBe(
      'body: is not valid JSON',
    );
    await expectContractError(
      await stub.request('/v1/email', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-auth-token': 'dev-token' },
        body: 'to=a@example.com',
      }),
      415,
      'unsupported_media_type',
    );
    await expectContractError(
      await stub.request('/v1/email', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-auth-token': 'dev-token',
        },
        body: 'to=a@example.com',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('refuses an attachment over 10 MiB decoded with 413', async () => {
    const b64 = Buffer.alloc(10 * 1024 * 1024 + 3).toString('base64');
    const body = {
      to: 'a@example.com',
      subject: 's',
      attachment: { mime_type: 'application/octet-stream', file_name: 'big.bin', b64 },
    };
    const error = await expectContractError(
      await stub.postJson('/v1/email', body),
      413,
      'payload_too_large',
    );
    expect(error.error).toMatch(/^attachment\.b64:/);
  });

  it('accepts an attachment of exactly 10 MiB', async () => {
    const b64 = Buffer.alloc(10 * 1024 * 1024).toString('base64');
    const body = {
      to: 'a@example.com',
      subject: 's',
      attachment: { mime_type: 'application/octet-stream', file_name: 'ok.bin', b64 },
    };
    expect((await stub.postJson('/v1/email', body)).status).toBe(200);
  });

  it('refuses a body over 16 MiB with 413', async () => {
    const body = JSON.stringify({
      to: 'a@example.com',
      subject: 's',
      content: 'x'.repeat(16 * 1024 * 1024),
    });
    await expectContractError(await stub.postJson('/v1/email', body), 413, 'payload_too_large');
  });

  it('answers 401 auth_failed without a token or with an unknown one, before reading the body', async () => {
    const missing = await stub.postJson('/v1/email', 'not even json', { 'x-auth-token': '' });
    expect((await expectContractError(missing, 401, 'auth_failed')).error).toMatch(/missing/);
    const unknown = await stub.postJson(
      '/v1/email',
      { to: 'a@example.com', subject: 's' },
      { 'x-auth-token': 'dev-tokeN' },
    );
    await expectContractError(unknown, 401, 'auth_failed');
  });

  it('answers 403 not_emailapi for an account not enabled for email', async () => {
    const created = (await (
      await stub.postJson('/__stub/accounts', {
        email: 'ai-only@example.com',
        email_api: false,
        ai_api: true,
      })
    ).json()) as { token: string };
    const response = await stub.postJson(
      '/v1/email',
      { to: 'a@example.com', subject: 's' },
      { 'x-auth-token': created.token },
    );
    await expectContractError(response, 403, 'not_emailapi');
  });

  it('surfaces errors through the shared client as SitebeamApiError', async () => {
    const error = await stub.client.sendEmail({ to: 'bad', subject: 's' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SitebeamApiError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_field', field: 'to' });
  });
});

describe('POST /v1/email on an instance with email switched off', () => {
  it('answers 405 disabled_email_service', async () => {
    const noEmail = await startTestStub({ emailEnabled: false });
    try {
      const response = await noEmail.postJson('/v1/email', { to: 'a@example.com', subject: 's' });
      await expectContractError(response, 405, 'disabled_email_service');
    } finally {
      await noEmail.close();
    }
  });
});
