// The stub's own surface (never on a real instance): accounts, captured mail, visits, faults.
import type { FastifyInstance } from 'fastify';
import { errorCodes } from 'sitebeam/client';
import type { StubContext } from '../context.js';
import { ContractError } from '../errors.js';
import { type FaultRule, faultRulesSchema } from '../faults.js';

const accountSwitches = {
  email_api: { type: 'boolean' },
  ai_api: { type: 'boolean' },
} as const;

export function stubAdminRoutes(app: FastifyInstance, context: StubContext) {
  const hidden = { hide: true };

  app.post<{ Body: { email: string; email_api?: boolean; ai_api?: boolean } }>(
    '/__stub/accounts',
    {
      schema: {
        ...hidden,
        body: {
          type: 'object',
          required: ['email'],
          properties: { email: { type: 'string', format: 'mailbox' }, ...accountSwitches },
        },
      },
    },
    async (request, reply) => {
      const { email, email_api = false, ai_api = false } = request.body;
      if (context.accounts.has(email)) {
        throw new ContractError(
          errorCodes.invalidPayload,
          `email: an account for ${email} exists already`,
        );
      }
      reply.code(201);
      return { status: 'ok', ...context.accounts.create({ email, email_api, ai_api }) };
    },
  );

  app.patch<{ Params: { email: string }; Body: { email_api?: boolean; ai_api?: boolean } }>(
    '/__stub/accounts/:email',
    { schema: { ...hidden, body: { type: 'object', properties: accountSwitches } } },
    async (request) => {
      const account = context.accounts.patch(request.params.email, request.body);
      if (!account) {
        throw new ContractError(
          errorCodes.notFound,
          `email: no account for ${request.params.email}`,
        );
      }
      return { status: 'ok', ...account };
    },
  );

  app.get('/__stub/emails', { schema: hidden }, async () => ({ emails: context.emails.list() }));
  app.delete('/__stub/emails', { schema: hidden }, async () => {
    context.emails.clear();
    return { status: 'ok' };
  });

  app.get<{ Params: { id: string } }>(
    '/__stub/emails/:id/attachment',
    { schema: hidden },
    async (request, reply) => {
      const attachment = context.emails.find((email) => email.id === request.params.id)?.message
        .attachment;
      if (!attachment)
        throw new ContractError(errorCodes.notFound, 'id: no such email with an attachment');
      // Served as a download, sandboxed and never sniffed: captured content must not run on this origin.
      return reply
        .headers({
          'content-type': attachment.mime_type,
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(attachment.file_name)}`,
          'x-content-type-options': 'nosniff',
          'content-security-policy': 'sandbox',
        })
        .send(Buffer.from(attachment.b64, 'base64'));
    },
  );

  app.get('/__stub/visits', { schema: hidden }, async () => ({ visits: context.visits.list() }));
  app.delete('/__stub/visits', { schema: hidden }, async () => {
    context.visits.clear();
    return { status: 'ok' };
  });

  app.get('/__stub/faults', { schema: hidden }, async () => ({ faults: context.faults.list() }));
  app.put<{ Body: { faults: FaultRule[] } }>(
    '/__stub/faults',
    { schema: { ...hidden, body: faultRulesSchema } },
    async (request) => {
      context.faults.set(request.body.faults);
      return { status: 'ok', faults: context.faults.list() };
    },
  );
  app.delete('/__stub/faults', { schema: hidden }, async () => {
    context.faults.clear();
    return { status: 'ok' };
  });
}
