/**
 * Why a webhook try failed, as the delivery log keeps and shows it: one of a fixed set of classes, never the
 * network's own words. A socket error names addresses and ports (`connect ECONNREFUSED 10.0.0.7:8443`) and a
 * TLS error the receiver's software: kept or shown, they would make the delivery log a port scanner.
 * - `invalid_url`: the url is not an absolute https:// URL (no retry).
 * - `private_target`: the url resolves to a private, loopback or reserved address.
 * - `dns`: the host name does not resolve.
 * - `refused`, `reset`, `timeout`, `unreachable`: the connection was refused, cut, not answered in time, or
 *   the network has no route to it.
 * - `tls`: the TLS handshake failed (certificate, protocol version, cipher).
 * - `http_status`: the receiver answered, not with a 2xx (`responseStatus` has the status).
 * - `network`: any other failure on the way.
 * - `endpoint_deleted`, `endpoint_disabled`, `no_secret`: the try was given up before sending.
 */
export const DELIVERY_ERRORS = [
  'invalid_url',
  'private_target',
  'dns',
  'refused',
  'reset',
  'timeout',
  'unreachable',
  'tls',
  'http_status',
  'network',
  'endpoint_deleted',
  'endpoint_disabled',
  'no_secret',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];
