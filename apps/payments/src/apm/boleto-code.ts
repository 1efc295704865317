/** Modulo 10 check digit of a boleto line field (weights 2,1,2,1… from the right). */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const p = Number(digits[i]) * weight;
    sum += p > 9 ? Math.floor(p / 10) + (p % 10) : p;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** Modulo 11 general check digit of the 44-digit barcode (weights 2..9 from the right; 0, 10, 11 → 1). */
export function mod11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

const DAY_MS = 86_400_000;
/** FEBRABAN restarted the due-date factor at 1000 on 2025-02-22 (it had reached 9999). */
const FACTOR_BASE = Date.UTC(2025, 1, 22);

export function dueFactor(dueDate: string): string {
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - FACTOR_BASE) / DAY_MS);
  return String(1000 + (((days % 9000) + 9000) % 9000)).padStart(4, '0');
}

/**
 * A FEBRABAN boleto for the sandbox: the 44-digit barcode (bank, currency 9, general check digit, due
 * factor, amount in centavos, 25-digit free field) and the 47-digit "linha digitável" payers type in.
 */
export function boletoCodes(o: { bank: string; dueDate: string; amountCents: number; freeField: string }): {
  barcode: string;
  line: string;
} {
  const amount = String(o.amountCents).padStart(10, '0');
  if (amount.length > 10) throw new RangeError('Boleto amount exceeds 10 digits');
  const free = o.freeField.padStart(25, '0').slice(-25);
  const head = `${o.bank}9`;
  const tail = `${dueFactor(o.dueDate)}${amount}${free}`;
  const dv = mod11(head + tail);
  const barcode = `${head}${dv}${tail}`;
  const f1 = `${head}${free.slice(0, 5)}`;
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  const line = `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${dv}${dueFactor(o.dueDate)}${amount}`;
  return { barcode, line };
}
