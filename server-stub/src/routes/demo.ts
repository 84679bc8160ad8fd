// The demo page, the inbox page and the built browser files.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { errorCodes } from 'sitebeam/client';
import type { StubContext } from '../context.js';
import { demoContentSecurityPolicy, renderDemoPage } from '../demo/demo-page.js';
import { inboxContentSecurityPolicy, renderInbox } from '../demo/inbox-page.js';
import { ContractError } from '../errors.js';

const require = createRequire(import.meta.url);
const publicDir = new URL('../../public/', import.meta.url);

const builtFiles = ['sitebeam.min.js', 'sitebeam-form.min.js', 'sitebeam-chat.min.js'] as const;
const publicFiles = { 'demo.js': 'text/javascript', 'demo.css': 'text/css' } as const;

export function demoRoutes(app: FastifyInstance, context: StubContext) {
  const hidden = { schema: { hide: true } };

  app.get('/', hidden, async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', demoContentSecurityPolicy)
      .send(renderDemoPage(`${request.protocol}://${request.host}`, context.models.list())),
  );

  app.get('/__stub/inbox', hidden, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', inboxContentSecurityPolicy)
      .send(renderInbox(context.emails.list())),
  );

  for (const [file, type] of Object.entries(publicFiles)) {
    app.get(`/${file}`, hidden, async (_request, reply) =>
      reply.type(`${type}; charset=utf-8`).send(await readFile(new URL(file, publicDir))),
    );
  }

  for (const file of builtFiles) {
    app.get(`/${file}`, hidden, async (_request, reply) => {
      let source: Buffer;
      try {
        source = await readFile(require.resolve(`sitebeam/${file}`));
      } catch {
        throw new ContractError(errorCodes.notFound, `${file} is not built yet: run npm run build`);
      }
      return reply
        .type('text/javascript; charset=utf-8')
        .header('access-control-allow-origin', '*')
        .send(source);
    });
  }
}
