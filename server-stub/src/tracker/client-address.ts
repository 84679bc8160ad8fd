import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) are reported as IPv4. */
export function normaliseAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  }
  return parsed.toString();
}

/**
 * The visitor's address. Proxy headers are believed only behind a trusted proxy:
 * `X-Real-IP`, then the first `X-Forwarded-For` entry; otherwise the socket's address.
 */
export function clientAddress(request: FastifyRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const candidates = [
      firstHeader(request.headers['x-real-ip']),
      firstHeader(request.headers['x-forwarded-for'])?.split(',')[0],
    ];
    for (const candidate of candidates) {
      const trimmed = candidate?.trim();
      if (trimmed && ipaddr.isValid(trimmed)) return normaliseAddress(trimmed);
    }
  }
  return normaliseAddress(request.socket.remoteAddress ?? 'unknown');
}
