import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A receipt id for support and reconciliation: short, unambiguous to read out, unique per merchant (index). */
export function generatePaymentCode(): string {
  return `PAY-${Array.from(randomBytes(12), (b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}
