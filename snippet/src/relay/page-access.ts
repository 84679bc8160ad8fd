// Which pages may use an endpoint of the relay: pages on an allowed origin, and the relay's own
// (the confirmation page, the no-JavaScript chat page), judged by `Origin`, else `Referer`.
//
// The relay's own origin is never taken from a `Host` DNS rebinding can forge: a page on
// evil.example whose name resolves to the relay's address sends `Origin: http://evil.example`
// and `Host: evil.example`, from any visitor's browser. So the own origin is `publicUrl` when set;
// unset, the request's own origin counts only when its host is a name no DNS answer can bind
// (`localhost`, `*.localhost`, an IP address, as the stub's host check reasons), which keeps a
// relay on this machine (`npm start`, `npm run relay`) working with nothing more to configure.
import { isLoopbackHost } from '../client/base-url.js';
import type { ResolvedEndpointConfig } from './config.js';

export interface PageAccess {
  /** No `Origin` nor `Referer` (a script), or one on an allowed origin. */
  allowedPage: boolean;
  /** The CORS headers an answer to this request carries. */
  cors: Record<string, string>;
  isAllowed: (origin: string) => boolean;
  /** The origin the relay's own pages are on, when the relay can tell it. */
  ownOrigin: string | undefined;
}

// The WHATWG URL parser has already turned every IPv4 spelling into dotted decimal.
const IPV4_HOSTNAME = /^\d{1,3}(?:\.\d{1,3}){3}$/;

const unforgeableHost = (hostname: string) =>
  isLoopbackHost(hostname) || hostname.startsWith('[') || IPV4_HOSTNAME.test(hostname);

/** Judges each request's page for one endpoint. */
export function createPageAccess(
  settings: Pick<ResolvedEndpointConfig, 'allowedOrigins' | 'publicUrl' | 'log'>,
): (request: Request) => PageAccess {
  let hinted = false;
  // Once only: a refused page on the request's own Host is either rebinding or a relay deployed
  // under a name without `publicUrl`, whose own pages are refused; the owner needs the line once.
  const hintOnce = (pageOrigin: string, requestUrl: URL) => {
    if (hinted || settings.publicUrl !== undefined) return;
    const page = originOf(pageOrigin);
    if (page === undefined || new URL(page).host !== requestUrl.host) return;
    hinted = true;
    settings.log(
      `sitebeam-relay: refused a page on ${page}, the relay's own Host: if visitors reach the relay at ${requestUrl.host}, set SITEBEAM_PUBLIC_URL (option publicUrl) to its https origin; otherwise the page was another site's (DNS rebinding)`,
    );
  };

  return (request) => {
    const requestUrl = new URL(request.url);
    const ownOrigin =
      settings.publicUrl ?? (unforgeableHost(requestUrl.hostname) ? requestUrl.origin : undefined);
    const origin = request.headers.get('origin');
    const pageOrigin = origin ?? originOf(request.headers.get('referer'));
    const isAllowed = (candidate: string) =>
      candidate === ownOrigin || settings.allowedOrigins.includes(candidate);
    const allowedPage = pageOrigin === undefined || isAllowed(pageOrigin);
    if (!allowedPage) hintOnce(pageOrigin, requestUrl);
    const cors: Record<string, string> =
      origin && allowedPage ? { 'access-control-allow-origin': origin } : {};
    return { allowedPage, cors, isAllowed, ownOrigin };
  };
}

export function originOf(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
