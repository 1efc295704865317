import { TestStack } from '../support/stack';
import { usd } from '../payments/payments-fixtures';
import { RouteCaller } from './route-caller';
import { answerOf, TextCase, textFields } from './text-fields';

/** A string of exactly `n` characters that also passes the field's format rules where it has one. */
function valueOf(field: string, n: number): string {
  if (/email/i.test(field)) {
    const local = 'a'.repeat(Math.min(64, n - 6));
    let domain = '';
    for (let rest = n - local.length - 1 - 4; rest > 0;) {
      const label = Math.min(63, rest - (domain ? 1 : 0));
      domain += (domain ? '.' : '') + 'b'.repeat(label);
      rest -= label + (domain.length > label ? 1 : 0);
    }
    return `${local}@${domain}.com`.slice(0, n).padEnd(n, 'm');
  }
  if (/url/i.test(field)) return `https://example.com/${'p'.repeat(n - 20)}`;
  return 'x'.repeat(n);
}

describe('every text limit, on every route that takes the field', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let key: string;
  let cases: TextCase[] = [];
  let undocumented: string[] = [];

  beforeAll(async () => {
    caller = await RouteCaller.start();
    ({ stack, key } = caller);
    const fields = await textFields(caller);
    cases = fields.cases.filter((c) => c.max !== undefined);
    undocumented = fields.undocumented;
  }, 120_000);
  afterAll(() => stack.stop());

  it('finds the limited fields on the routes of /openapi.json', () => {
    const routes = new Set(cases.map((c) => `${c.route} ${c.param}`));
    expect(routes.size).toBeGreaterThan(150);
    for (const expected of [
      'POST /v1/payment-link description',
      'POST /v1/payment/purchase card.cardData.cardAddress.line1',
      'POST /v1/payment/purchase shopper.email',
      'POST /v1/checkout/{id}/pay customerName',
      'GET /v1/payment?startingAfter startingAfter',
      'POST /v1/subscription/usage/batch events.0.meterCode',
    ]) {
      expect(routes).toContain(expected);
    }
  });

  it('at the limit the field is taken; one more character is 400 VALIDATION_FAILED naming it', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const at = answerOf(await c.send(valueOf(c.param, c.max!)), c.param);
      if (at.status >= 500 || (at.param === c.param && /longer|shorter|characters/.test(at.error?.message))) {
        wrong.push(`${c.route} ${c.param} at ${c.max}: ${at.status} ${JSON.stringify(at.error)}`);
      }
      const over = answerOf(await c.send(valueOf(c.param, c.max! + 1)), c.param);
      if (over.status !== 400 || over.error?.code !== 'VALIDATION_FAILED' || over.param !== c.param) {
        wrong.push(`${c.route} ${c.param} at ${c.max! + 1}: ${over.status} ${JSON.stringify(over.error)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the OpenAPI document states each limit', () => {
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it('a payment link description of 300 characters is refused', async () => {
    const r = await stack.http('POST', '/v1/payment-link', {
      key,
      body: { amount: usd(100), title: 'T', description: 'd'.repeat(300) },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'description' });
  });
});
