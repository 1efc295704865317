import { TestStack } from '../support/stack';
import { BillingClient, billingStack, cardData, expectError, paymentsDb } from './billing-fixtures';

/** RFC 4180: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('CSV exports of payments, refunds and invoices', () => {
  let stack: TestStack;
  let m: BillingClient;
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 86_400_000).toISOString();
  const range = `createdFrom=${encodeURIComponent(from)}&createdTo=${encodeURIComponent(to)}`;

  beforeAll(async () => {
    [stack, m] = await billingStack();
  });
  afterAll(() => stack.stop());

  const purchase = async (o: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    const r = await m.post('/v1/payment/purchase', {
      merchantCode: m.merchantCode,
      orderCode: `o-${Math.random().toString(36).slice(2)}`,
      amount: { currency: 'USD', value: 1000, exponent: 2 },
      card: cardData(),
      ...o,
    });
    expect(r.status).toBe(200);
    return r.body;
  };

  it('exports each kind with a header line, oldest first, amounts in minor units', async () => {
    const a = await purchase({ shopper: { email: 'ana@example.com' } });
    const b = await purchase({ orderCode: '=cmd|calc' });
    const refund = await m.post(`/v1/payment/${a.id}/refund`, {
      merchantCode: m.merchantCode,
      amount: { currency: 'USD', value: 250, exponent: 2 },
      reason: 'Returned, "broken"',
    });
    expect(refund.status).toBe(200);
    const plan = await m.plan();
    const sub = await m.subscription({ planId: plan.id });

    const payments = await m.get(`/v1/export/payments?${range}`);
    expect(payments.status).toBe(200);
    expect(payments.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(payments.headers.get('content-disposition')).toMatch(/attachment; filename="payments-/);
    const rows = parseCsv(payments.body);
    expect(rows[0].slice(0, 5)).toEqual(['id', 'createdAt', 'paymentCode', 'orderCode', 'status']);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get(a.id)).toEqual(
      expect.arrayContaining(['captured', 'visa', '1111', 'ana@example.com', 'USD', '2', '1000', '250']),
    );
    // A cell a spreadsheet would run is written as text.
    expect(byId.get(b.id)![3]).toBe("'=cmd|calc");
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .indexOf(a.id),
    ).toBeLessThan(
      rows
        .slice(1)
        .map((r) => r[0])
        .indexOf(b.id),
    );

    const refunds = parseCsv((await m.get(`/v1/export/refunds?${range}`)).body);
    expect(refunds[0]).toContain('reason');
    expect(refunds.slice(1)).toEqual([expect.arrayContaining([a.id, '250', 'Returned, "broken"', 'api_key'])]);

    const invoices = parseCsv((await m.get(`/v1/export/invoices?${range}`)).body);
    expect(invoices[0]).toContain('subscriptionId');
    expect(invoices.slice(1)).toEqual([expect.arrayContaining([sub.id, 'paid', 'USD', '1000'])]);
  });

  /** Copies of a payment (new ids and codes, 1 ms apart): a large range without as many purchases. */
  const copies = (seedId: string, n: number) =>
    paymentsDb(
      stack,
      `INSERT INTO payments
       SELECT (jsonb_populate_record(NULL::payments, to_jsonb(p) || jsonb_build_object(
                 'id', gen_random_uuid(), 'payment_code', 'bulk-' || g, 'order_code', 'bulk-' || g,
                 'created_at', p.created_at + g * interval '1 millisecond'))).*
         FROM payments p, generate_series(1, $2::int) g WHERE p.id = $1`,
      [seedId, n],
    );

  it('streams a range of more rows than a batch holds: chunked, every row once, in order', async () => {
    const seed = await purchase();
    await copies(seed.id, 1800);
    const res = await fetch(`${stack.url}/v1/export/payments?${range}`, {
      headers: { authorization: `Bearer ${m.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      text += decoder.decode(chunk, { stream: true });
    }
    const ids = parseCsv(text)
      .slice(1)
      .map((r) => r[0]);
    const total = (
      await paymentsDb(stack, `SELECT count(*)::int AS n FROM payments WHERE merchant_code = $1`, [m.merchantCode])
    )[0].n;
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const bulk = parseCsv(text)
      .filter((r) => r[2]?.startsWith('bulk-'))
      .map((r) => Number(r[2].slice(5)));
    expect(bulk).toEqual([...bulk].sort((x, y) => x - y));
    expect(chunks).toBeGreaterThan(0);
  });

  it('refuses a bad range or kind in the error envelope', async () => {
    expectError(
      await m.get(`/v1/export/payments?createdFrom=${encodeURIComponent(to)}&createdTo=${encodeURIComponent(from)}`),
      400,
      'VALIDATION_FAILED',
      'createdFrom',
    );
    expectError(
      await m.get(`/v1/export/payments?createdFrom=${encodeURIComponent(from)}`),
      400,
      'VALIDATION_FAILED',
      'createdTo',
    );
    expectError(await m.get(`/v1/export/charges?${range}`), 404, 'NOT_FOUND');
  });
});
