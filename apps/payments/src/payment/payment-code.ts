import { randomString } from '@app/clock';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A receipt id for support and reconciliation: short, unambiguous to read out, unique per merchant (index). */
export function generatePaymentCode(): string {
  return `PAY-${randomString(ALPHABET, 12)}`;
}
