/** The request header that makes a POST safe to retry (docs/api.md, Idempotency-Key). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** What a valid key is, as error messages and the API description say it (IDEMPOTENCY_KEY_PATTERN checks it). */
export const IDEMPOTENCY_KEY_FORMAT = '1-255 printable ASCII characters';

/** 1-255 printable ASCII characters; a uuid v4 is recommended. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export const isValidIdempotencyKey = (key: unknown): key is string =>
  typeof key === 'string' && IDEMPOTENCY_KEY_PATTERN.test(key);
