/**
 * The status a person reads: the API's, except a captured payment with part of it refunded shows as
 * `partially_refunded` (the API keeps `captured`; its refunds are in `refunds`).
 */
export function displayStatus(p: {
  status: string;
  amountCaptured: { value: number };
  amountRefunded: { value: number };
}): string {
  if (p.status === 'captured' && p.amountRefunded.value > 0 && p.amountRefunded.value < p.amountCaptured.value) {
    return 'partially_refunded';
  }
  return p.status;
}
