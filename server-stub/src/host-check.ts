// Which `Host` the stub answers, against DNS rebinding (as Vite's `server.allowedHosts` and
// webpack-dev-server's host check do). A page on evil.example whose name is made to resolve to
// 127.0.0.1 talks to the stub as its own origin, but its requests still say `Host: evil.example`.
//
// Always served: IP literals (a browser sends one only when the page's own origin is that address,
// which rebinding cannot forge, so every address of a 0.0.0.0 stub works too), `localhost` and
// `*.localhost` (browsers resolve those to loopback themselves), the name `--host` gives, and each
// `--allowed-host` (a leading dot also allows the subdomains).
//
// The API under /v1/ answers any Host, as a real instance does: the tracker is public with CORS `*`,
// and the email and AI endpoints need a token the page does not have. Rebinding would reach them
// with the well-known dev token, but only to fill the stub's inbox, which the page cannot read.
import { isIP } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import { sendError } from './errors.js';

export const HOST_NOT_ALLOWED = 'host_not_allowed';

const answersAnyHost = (route: string) => route.startsWith('/v1/') || route === '/openapi.json';

/** A malformed Host comes from no browser page; the demo relay answers it itself (400, counted). */
const relayRoutes = new Set(['/contact', '/chat']);

const IPV6_HOST = /^\[([0-9a-f:.]+)\](?::\d+)?$/i;
const NAMED_HOST = /^([a-z0-9_.-]+)(?::\d+)?$/i;

/** The host name of a `Host` header (no port, no brackets, lower case), or undefined if malformed. */
function hostnameOf(header: string): string | undefined {
  const ipv6 = IPV6_HOST.exec(header);
  if (ipv6) return isIP(ipv6[1] ?? '') === 6 ? (ipv6[1] ?? '').toLowerCase() : undefined;
  return NAMED_HOST.exec(header)?.[1]?.toLowerCase();
}

/** Decides whether a host name is one the stub serves. */
export function hostMatcher(bindHost: string, allowedHosts: readonly string[]) {
  const names = [bindHost, ...allowedHosts].map((name) => name.toLowerCase());
  return (hostname: string) =>
    isIP(hostname) !== 0 ||
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    names.some((name) =>
      name.startsWith('.')
        ? hostname === name.slice(1) || hostname.endsWith(name)
        : hostname === name,
    );
}

export function requireServedHost(
  bindHost: string,
  allowedHosts: readonly string[],
): onRequestHookHandler {
  const isServed = hostMatcher(bindHost, allowedHosts);
  return async (request, reply) => {
    if (answersAnyHost(request.routeOptions.url ?? '')) return;
    const header = request.headers.host;
    if (!header) return sendError(reply, 403, HOST_NOT_ALLOWED, 'Host: the header is missing');
    const hostname = hostnameOf(header);
    if (hostname === undefined) {
      if (relayRoutes.has(request.routeOptions.url ?? '')) return;
      return sendError(reply, 400, 'invalid_request', `Host: "${header}" is not a valid host`);
    }
    if (isServed(hostname)) return;
    return sendError(
      reply,
      403,
      HOST_NOT_ALLOWED,
      `Host: "${header}" is not a host this stub serves; start it with --allowed-host ${hostname ?? 'NAME'} to allow it`,
    );
  };
}
