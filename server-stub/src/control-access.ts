// Who may use the stub's control surface, /__stub/* (create accounts and tokens, read captured
// mail, inject faults and delays): this machine only, unless --open-control says otherwise. The
// peer is the connection's own address, never a forwarded header a client could write.
import { isIP } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import { sendError } from './errors.js';

export const CONTROL_NOT_ALLOWED = 'control_not_allowed';

/** 127.0.0.0/8, ::1, and IPv4 loopback as an IPv6-mapped address. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.replace(/^::ffff:/i, '');
  return address === '::1' || (isIP(ipv4) === 4 && ipv4.startsWith('127.'));
}

export function controlFromLoopbackOnly(): onRequestHookHandler {
  return async (request, reply) => {
    if (!request.url.startsWith('/__stub/') || isLoopback(request.socket.remoteAddress)) return;
    return sendError(
      reply,
      403,
      CONTROL_NOT_ALLOWED,
      '/__stub/ answers this machine only; start the stub with --open-control to open it to the network',
    );
  };
}
