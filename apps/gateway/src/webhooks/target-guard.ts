import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A webhook URL the guard refuses; `permanent` when no retry can fix it (bad scheme or URL). */
export class TargetRefused extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'TargetRefused';
  }
}

export interface ResolvedTarget {
  url: URL;
  /** Host name without IPv6 brackets. */
  host: string;
  /** The checked addresses the connection is pinned to (empty only when resolution was optional and failed). */
  addresses: LookupAddress[];
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const LOOKUP_TIMEOUT_MS = 5_000;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} timed out`)), LOOKUP_TIMEOUT_MS);
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });

/**
 * Only public unicast addresses may receive webhooks: this refuses private (RFC 1918), loopback, link-local
 * (169.254.169.254, the cloud metadata address, is one), unique-local, CGNAT, unspecified, multicast,
 * broadcast, reserved, benchmarking and the IPv6 translation prefixes that can embed any of those.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  return ipaddr.process(address).range() === 'unicast';
}

/** Parses a webhook URL, HTTPS only; throws TargetRefused (permanent). */
export function parseWebhookUrl(raw: string): { url: URL; host: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('url must be an absolute https:// URL', true);
  }
  if (url.protocol !== 'https:') throw new TargetRefused('url must use https://', true);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new TargetRefused('url must name a host', true);
  return { url, host };
}

/**
 * Resolves and checks a webhook target. `requireResolution` is false at registration (a host that does not
 * resolve yet is accepted and checked again at every delivery) and true at delivery time.
 */
export async function resolveTarget(
  raw: string,
  o: { allowPrivate: boolean; requireResolution: boolean; resolver?: Resolver },
): Promise<ResolvedTarget> {
  const { url, host } = parseWebhookUrl(raw);
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (o.resolver ?? systemResolver)(host);
    } catch (e) {
      if (o.requireResolution) throw new TargetRefused(`cannot resolve ${host}: ${(e as Error).message}`, false);
      return { url, host, addresses: [] };
    }
    if (!addresses.length && o.requireResolution) throw new TargetRefused(`${host} has no address`, false);
  }
  if (!o.allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      throw new TargetRefused(`url resolves to a private, loopback or reserved address (${refused.address})`, false);
    }
  }
  return { url, host, addresses };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that answers only the addresses already checked, so a DNS answer that
 * changes between the check and the connection (rebinding) cannot redirect the request.
 */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (_host: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    if (typeof options === 'object' && options?.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}
