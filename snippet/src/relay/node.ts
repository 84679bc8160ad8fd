/// <reference types="node" />
// Serves a relay handler from Node's http server. Type-only imports from node:*, so importing
// `sitebeam/relay` stays safe on Workers and Deno.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contactLimits } from '../form/protocol.js';
import type { RelayHandler } from './handler.js';

/** A `(req, res)` listener for `http.createServer` or any Node framework's raw route. */
export function toNodeListener(handler: RelayHandler) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    try {
      const response = await handler(await toRequest(incoming), {
        clientIp: normalizeAddress(incoming.socket.remoteAddress),
      });
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(new Uint8Array(await response.arrayBuffer()));
    } catch (error) {
      console.error('sitebeam-relay: answering failed:', error);
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end('Internal error');
    }
  };
}

async function toRequest(incoming: IncomingMessage): Promise<Request> {
  const url = `http://${incoming.headers.host ?? 'localhost'}${incoming.url ?? '/'}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = incoming.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  // Read one byte past the limit at most: enough for the handler to answer 413.
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > contactLimits.bodyMaxBytes) break;
  }
  headers.delete('content-length');
  return new Request(url, { method, headers, body: new Uint8Array(Buffer.concat(chunks)) });
}

function normalizeAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}
