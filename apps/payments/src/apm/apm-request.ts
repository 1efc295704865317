import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AchApmData, ApmMethod, BoletoApmData, PixApmData } from '@app/contracts';
import { DomainError, validationFailed } from '@app/errors';

export type ApmData =
  { method: 'pix'; data: PixApmData } | { method: 'boleto'; data: BoletoApmData } | { method: 'ach'; data: AchApmData };

const SHAPES = { pix: PixApmData, boleto: BoletoApmData, ach: AchApmData } as const;

/** The currency each method settles in. */
export const APM_CURRENCY: Record<ApmMethod, string> = { pix: 'BRL', boleto: 'BRL', ach: 'USD' };

/** ABA checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaRoutingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/**
 * The `apm` object of a purchase for its `paymentMethod`: pix `{payerDocument?,
 * expiresInSeconds?}`, boleto `{payerDocument, payerName, dueDate?}`, ach `{accountHolderName, accountNumber,
 * routingNumber, accountType}`; 400 VALIDATION_FAILED naming `apm.<field>` otherwise.
 */
export function parseApm(
  method: ApmMethod,
  apm: unknown,
  amount: { currency: string; value: number },
  today: string,
): ApmData {
  if (amount.currency !== APM_CURRENCY[method]) {
    throw DomainError.validation(`${method} payments are in ${APM_CURRENCY[method]}`, 'amount.currency');
  }
  if (amount.value <= 0) throw DomainError.validation(`A ${method} payment needs an amount above 0`, 'amount.value');
  if (apm !== undefined && (typeof apm !== 'object' || apm === null || Array.isArray(apm))) {
    throw DomainError.validation('apm must be an object', 'apm');
  }
  const data = plainToInstance(SHAPES[method] as new () => object, apm ?? {});
  const errors = validateSync(data, { whitelist: true });
  if (errors.length) throw validationFailed(errors, 'apm');
  if (method === 'ach' && !abaRoutingValid((data as AchApmData).routingNumber)) {
    throw DomainError.validation('apm.routingNumber is not a valid ABA routing number', 'apm.routingNumber');
  }
  if (method === 'boleto') {
    if (amount.value > 9_999_999_999)
      throw DomainError.validation('A boleto is at most 99999999.99 BRL', 'amount.value');
    const due = (data as BoletoApmData).dueDate;
    if (due !== undefined && (Number.isNaN(Date.parse(`${due}T00:00:00Z`)) || due < today)) {
      throw DomainError.validation('apm.dueDate must be a real date, today or later', 'apm.dueDate');
    }
  }
  return { method, data } as ApmData;
}
