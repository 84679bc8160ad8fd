/// <reference types="node" />
// Serves a relay handler from Node's http server. Type-only imports from node:*, so importing
// `sitebeam/relay` stays safe on Workers and Deno.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contactLimits } from '../form/protocol.js';
import type { RelayHandler } from './handler.js';

// A host name, an IPv4 address or a bracketed IPv6 address, then an optional port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** A `(req, res)` listener for `http.createServer` or any Node framework's raw route. */
export function toNodeListener(handler: RelayHandler) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    try {
      const { request, malformedHost, unread } = await toRequest(incoming);
      const response = await handler(request, {
        clientIp: incoming.socket.remoteAddress,
        ...(malformedHost ? { malformedHost } : {}),
      });
      const headers = Object.fromEntries(response.headers);
      if (unread) {
        // The rest of an oversized body is never read: answer, then drop the connection.
        headers.connection = 'close';
        outgoing.once('finish', () => incoming.socket.destroySoon());
      }
      outgoing.writeHead(response.status, headers);
      outgoing.end(new Uint8Array(await response.arrayBuffer()));
    } catch (error) {
      console.error('sitebeam-relay: answering failed:', error);
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end('Internal error');
    }
  };
}

async function toRequest(
  incoming: IncomingMessage,
): Promise<{ request: Request; malformedHost: boolean; unread: boolean }> {
  const host = incoming.headers.host ?? 'localhost';
  let url: URL | undefined;
  if (HOST.test(host)) {
    try {
      url = new URL(`http://${host}${incoming.url ?? '/'}`);
    } catch {}
  }
  const malformedHost = url === undefined;
  url ??= new URL(`http://localhost${(incoming.url ?? '/').replace(/^[^/]*/, '')}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  const method = incoming.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD' || malformedHost) {
    return { request: new Request(url, { method, headers }), malformedHost, unread: false };
  }
  const { body, unread } = await readUpToLimit(incoming);
  return { request: new Request(url, { method, headers, body }), malformedHost, unread };
}

/**
 * The body, read one chunk past the limit at most (enough for the handler to answer 413); a body
 * announced as larger than the limit is not read at all.
 */
async function readUpToLimit(
  incoming: IncomingMessage,
): Promise<{ body: Uint8Array<ArrayBuffer>; unread: boolean }> {
  const overLimit = new Uint8Array(contactLimits.bodyMaxBytes + 1);
  if (Number(incoming.headers['content-length']) > contactLimits.bodyMaxBytes) {
    return { body: overLimit, unread: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const complete = await new Promise<boolean>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > contactLimits.bodyMaxBytes) {
        incoming.pause();
        incoming.off('data', onData);
        resolve(incoming.readableEnded);
      }
    };
    incoming.on('data', onData);
    incoming.once('end', () => resolve(true));
    incoming.once('error', reject);
  });
  if (!complete) return { body: overLimit, unread: true };
  return { body: new Uint8Array(Buffer.concat(chunks)), unread: false };
}
