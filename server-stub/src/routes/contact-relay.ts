// POST /contact on the demo: Sitebeam's own relay, holding the first account's token and sending
// every message to that account's address, so `npm start` shows the whole contact-form path.
import type { FastifyInstance } from 'fastify';
import { createRelayHandler, toNodeListener } from 'sitebeam/relay';
import type { StubContext } from '../context.js';

export const CONTACT_PATH = '/contact';

export function contactRelayRoute(app: FastifyInstance, context: StubContext) {
  const account = context.demoAccount;
  let listener: ReturnType<typeof toNodeListener> | undefined;

  // The relay reads the raw request itself: no Fastify body parsing in this scope.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(CONTACT_PATH, { schema: { hide: true } }, (request, reply) => {
      if (!listener) {
        const address = app.server.address();
        const port = typeof address === 'object' && address ? address.port : context.options.port;
        listener = toNodeListener(
          createRelayHandler({
            apiUrl: `http://127.0.0.1:${port}`,
            apiToken: account.token,
            contactTo: account.email,
            contactFrom: account.email,
            // The demo page is on the relay's own origin, always allowed; the Host may be anything.
            allowedOrigins: [`http://127.0.0.1:${port}`],
            siteName: 'Sitebeam demo',
            log: (line) => context.writeLog({ level: 'WARN', type: 'relay', message: line }),
          }),
        );
      }
      reply.hijack();
      return listener(request.raw, reply.raw);
    });
  });
}
