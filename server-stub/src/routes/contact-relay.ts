// POST /contact on the demo: Sitebeam's own relay, holding the first account's token and sending
// every message to that account's address, so `npm start` shows the whole contact-form path.
import { type AddressInfo, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createRelayHandler, toNodeListener } from 'sitebeam/relay';
import type { StubContext } from '../context.js';
import type { StubOptions } from '../options.js';

export const CONTACT_PATH = '/contact';

const WILDCARD_ADDRESSES = ['0.0.0.0', '::'];

const urlHost = (host: string) => (isIP(host) === 6 ? `[${host}]` : host.toLowerCase());

/**
 * The pages that may post to the relay: the stub's own, on each host it serves by name or loopback
 * address. From the options, never from a request's `Host`, which the visitor's browser chooses.
 */
export function demoOrigins(options: StubOptions, port: number): string[] {
  const hosts = [
    ...(WILDCARD_ADDRESSES.includes(options.host) ? [] : [options.host]),
    '127.0.0.1',
    'localhost',
    '::1',
    ...options.allowedHosts.filter((name) => !name.startsWith('.')),
  ];
  return [...new Set(hosts.map((host) => `http://${urlHost(host)}:${port}`))];
}

export function contactRelayRoute(app: FastifyInstance, context: StubContext) {
  const account = context.demoAccount;
  let listener: ReturnType<typeof toNodeListener> | undefined;

  // Built on the first request, once the server listens: `--port 0` has chosen its port by then.
  const buildListener = () => {
    const { address, port } = app.server.address() as AddressInfo;
    const apiHost = WILDCARD_ADDRESSES.includes(address) ? '127.0.0.1' : address;
    return toNodeListener(
      createRelayHandler({
        apiUrl: `http://${urlHost(apiHost)}:${port}`,
        apiToken: account.token,
        contactTo: account.email,
        contactFrom: account.email,
        allowedOrigins: demoOrigins(context.options, port),
        siteName: 'Sitebeam demo',
        log: (line) => context.writeLog({ level: 'WARN', type: 'relay', message: line }),
      }),
    );
  };

  // The relay reads the raw request itself: no Fastify body parsing in this scope.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(CONTACT_PATH, { schema: { hide: true } }, (request, reply) => {
      listener ??= buildListener();
      reply.hijack();
      return listener(request.raw, reply.raw);
    });
  });
}
