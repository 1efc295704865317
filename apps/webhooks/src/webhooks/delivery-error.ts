import { DeliveryError } from '@app/contracts';

export { DELIVERY_ERRORS, DeliveryError } from '@app/contracts';

const BY_CODE: Readonly<Record<string, DeliveryError>> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  ECONNABORTED: 'reset',
  EPIPE: 'reset',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  ENODATA: 'dns',
  EPROTO: 'tls',
};

/** Node's TLS and certificate error codes (ERR_TLS_CERT_ALTNAME_INVALID, CERT_HAS_EXPIRED, ERR_SSL_…, …). */
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|INVALID_CA|INVALID_PURPOSE|CRL_)/;

/** The error code of a failed request (`ECONNREFUSED`, …), or undefined: the only detail the service logs. */
export function errorCodeOf(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : undefined;
}

/** The class of a request that failed on the way (no answer from the receiver). */
export function deliveryErrorOf(e: unknown): DeliveryError {
  const code = errorCodeOf(e);
  if (code === undefined) return 'network';
  return BY_CODE[code] ?? (TLS_CODE.test(code) ? 'tls' : 'network');
}
