import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { FastifyRequest } from 'fastify';

/**
 * The address a per-client limit counts: the socket's, or the one a trusted proxy names (TRUSTED_PROXIES).
 * An IPv4-mapped IPv6 address counts as its IPv4 address, and an IPv6 client by its /64: one host is
 * usually given a whole /64, so counting single IPv6 addresses would let it rotate past any limit.
 */
export function clientAddress(request: Pick<FastifyRequest, 'ip'>): string {
  const raw = request.ip ?? '';
  if (isIPv4(raw)) return raw; // already the dotted quad ipaddr.js would print, without its parse
  if (!ipaddr.isValid(raw)) return raw;
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
