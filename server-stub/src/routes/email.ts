import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type EmailMessage, errorCodes, limits, paths } from 'sitebeam/client';
import { requireAccount } from '../auth.js';
import type { StubContext } from '../context.js';
import { ContractError, ValidationError } from '../errors.js';
import {
  emailMessageSchema,
  emailSentSchema,
  errorBodySchema,
  validationFailureSchema,
} from '../schemas.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodedAttachmentSize(b64: string): number {
  const compact = b64.replace(/\r?\n/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw new ValidationError([
      { loc: ['body', 'attachment', 'b64'], msg: 'is not valid base64', type: 'value_error' },
    ]);
  }
  return (compact.length / 4) * 3 - (compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0);
}

export function emailRoutes(app: FastifyInstance, context: StubContext) {
  app.post<{ Body: EmailMessage }>(
    paths.email,
    {
      onRequest: requireAccount(context, 'email'),
      schema: {
        summary: 'Send an email',
        body: emailMessageSchema,
        response: { 200: emailSentSchema, 422: validationFailureSchema, '4xx': errorBodySchema },
      },
    },
    async (request) => {
      const message = request.body;
      if (message.attachment) {
        const bytes = decodedAttachmentSize(message.attachment.b64);
        if (bytes > limits.attachmentBytes) {
          throw new ContractError(
            errorCodes.payloadTooLarge,
            `attachment.b64: ${bytes} bytes decoded, over the ${limits.attachmentBytes} byte limit`,
          );
        }
      }
      const account = request.account?.email ?? '';
      context.emails.add({
        id: randomUUID(),
        received_at: new Date().toISOString(),
        account,
        message: { ...message, from: message.from ?? account },
      });
      return { status: 'ok', adapter: 'log', response: '' };
    },
  );
}
