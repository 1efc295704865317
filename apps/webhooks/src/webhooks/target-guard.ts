import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DeliveryError } from './delivery-error';

/**
 * A webhook URL the guard refuses; `permanent` when no retry can fix it (bad scheme or URL); `kind` is what the
 * delivery log keeps of it.
 */
export class TargetRefused extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly kind: Extract<DeliveryError, 'invalid_url' | 'private_target' | 'dns'> = 'invalid_url',
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

/**
 * The URL in the form a request to it is sent (lower-case scheme and host, no default port, dot segments
 * resolved): two spellings of one target compare equal. A string that is no URL is left as it is.
 */
export function canonicalUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const LOOKUP_TIMEOUT_MS = 5_000;

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
 * broadcast, reserved and benchmarking addresses. An IPv6 address that carries an IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32) is judged by the IPv4 address it
 * carries (both of Teredo's); the local-use NAT64 prefix 64:ff9b:1::/48 is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.every((v4) => v4.range() === 'unicast');
  if (v6.match(LOCAL_NAT64)) return false;
  return v6.range() === 'unicast';
}

const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/** The IPv4 addresses an IPv6 address carries, or undefined when it carries none. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = v6.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const last = () => v4(p[6], p[7]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && p[5] === 0xffff) return [last()]; // IPv4-mapped ::ffff:a.b.c.d
  if (zeros(0, 6) && (p[6] !== 0 || p[7] > 1)) return [last()]; // IPv4-compatible ::a.b.c.d
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [last()]; // NAT64 64:ff9b::a.b.c.d
  if (p[0] === 0x2002) return [v4(p[1], p[2])]; // 6to4 2002:AABB:CCDD::
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)]; // Teredo
  return undefined;
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
  o: {
    allowPrivate: boolean;
    requireResolution: boolean;
    resolver?: Resolver;
    /** The address rule; isPublicAddress unless a test stands in for it. */
    isPublic?: (address: string) => boolean;
  },
): Promise<ResolvedTarget> {
  const { url, host } = parseWebhookUrl(raw);
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (o.resolver ?? systemResolver)(host);
    } catch (e) {
      if (o.requireResolution) throw new TargetRefused(`cannot resolve ${host}: ${dnsProblem(e)}`, false, 'dns');
      return { url, host, addresses: [] };
    }
    if (!addresses.length && o.requireResolution) throw new TargetRefused(`${host} has no address`, false, 'dns');
  }
  if (!o.allowPrivate) {
    // The refusal never names the address: it would tell the merchant what an internal name resolves to.
    if (addresses.some((a) => !(o.isPublic ?? isPublicAddress)(a.address))) {
      throw new TargetRefused('url resolves to a private, loopback or reserved address', false, 'private_target');
    }
  }
  return { url, host, addresses };
}

/** The resolver's error code (ENOTFOUND, …), never its message, which may quote an address. */
function dnsProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,32}$/.test(code) ? code : 'lookup failed';
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
