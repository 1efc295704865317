/** Minor units shown in the currency's exponent (the API gives both), never through a float of the amount. */
export function formatAmount(amount: { value: number; currency: string; exponent?: number } | undefined): string {
  if (!amount) return '—';
  const exponent = amount.exponent ?? 2;
  const negative = amount.value < 0;
  const digits = String(Math.abs(amount.value)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent ? `.${digits.slice(-exponent)}` : '';
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction} ${amount.currency}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

/** A fresh Idempotency-Key for one confirmed action (a retry of that action reuses it). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
