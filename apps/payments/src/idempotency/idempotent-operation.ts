/** The operations an Idempotency-Key is honoured on; a key belongs to the first one it was used with. */
export type IdempotentOperation = 'purchase' | 'authorization' | 'capture' | 'refund' | 'cancel' | 'cancel_or_refund';
