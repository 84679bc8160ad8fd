// POST /contact on the demo: Sitebeam's own relay, holding the first account's token and sending
// every message to that account's address, so `npm start` shows the whole contact-form path.
import { type AddressInfo, isIP } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
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

  // The relay's API calls are answered in-process, through the same hooks and routes as any
  // other: a token may travel over plain http only to loopback, and `--host` may name another address.
  const inProcessFetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const answer = await app.inject({
      method: (init.method ?? 'GET') as InjectOptions['method'],
      url: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init.headers)),
      payload: typeof init.body === 'string' ? init.body : undefined,
    });
    return new Response(answer.body, {
      status: answer.statusCode,
      headers: answer.headers as Record<string, string>,
    });
  }) as typeof fetch;

  // Built on the first request, once the server listens: `--port 0` has chosen its port by then.
  const buildListener = () => {
    const { port } = app.server.address() as AddressInfo;
    return toNodeListener(
      createRelayHandler({
        apiUrl: `http://127.0.0.1:${port}`,
        apiToken: account.token,
        contactTo: account.email,
        contactFrom: account.email,
        allowedOrigins: demoOrigins(context.options, port),
        siteName: 'Sitebeam demo',
        log: (line) => context.writeLog({ level: 'WARN', type: 'relay', message: line }),
        fetch: inProcessFetch,
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
