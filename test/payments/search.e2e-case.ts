import { TestStack } from '../support/stack';
import { cardData, expectError, PaymentsClient, sandboxMerchant, uid, usd } from './payments-fixtures';

type Row = { id: string; status: string; refunds: { reason: string | null }[] };
const ids = (body: Row[]): string[] => body.map((p) => p.id);

describe('payments search, filters and keyset paging', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant);
  });
  afterAll(() => stack.stop());

  const list = async (client: PaymentsClient, query: string): Promise<Row[]> => {
    const r = await stack.http('GET', `/v1/payment?${query}`, { key: client.key });
    expect(r.status).toBe(200);
    return r.body;
  };

  it('filters the whole list by code prefix, email, last four, amount, status and date range', async () => {
    const fresh = await sandboxMerchant(stack);
    const tag = uid();
    const a = (
      await fresh.purchase({
        orderCode: `ORD-${tag}-1`,
        amount: usd(1500),
        shopper: { email: 'Ana@Example.com' },
        card: cardData('5500005555555559'),
      })
    ).body;
    const b = (await fresh.purchase({ orderCode: `ord-${tag}-2`, paymentCode: `PC_${tag}`, amount: usd(300) })).body;
    const declined = (await fresh.purchase({ orderCode: `x-${tag}`, card: cardData('4000000000000002') })).body;
    // Twenty-five more, so the matches are not all on the first page.
    for (let i = 0; i < 25; i++) await fresh.purchase();

    expect(ids(await list(fresh, `search=ORD-${tag}`))).toEqual([a.id]);
    expect(ids(await list(fresh, `search=PC_${tag}`))).toEqual([b.id]);
    // `_` and `%` are not wildcards.
    expect(await list(fresh, `search=PC%25${tag}`)).toEqual([]);
    expect(ids(await list(fresh, 'email=ana@example.COM'))).toEqual([a.id]);
    expect(ids(await list(fresh, 'last4=5559'))).toEqual([a.id]);
    expect(ids(await list(fresh, 'status=declined'))).toEqual([declined.id]);
    expect(ids(await list(fresh, 'amountMax=400'))).toEqual([b.id]);
    expect(ids(await list(fresh, `amountMin=1001&search=ORD-${tag}`))).toEqual([a.id]);
    const from = encodeURIComponent(a.createdAt);
    const to = encodeURIComponent(declined.createdAt);
    expect(ids(await list(fresh, `createdFrom=${from}&createdTo=${to}`))).toEqual([b.id, a.id]);

    expectError(await stack.http('GET', '/v1/payment?last4=12', { key: fresh.key }), 400, 'VALIDATION_FAILED', 'last4');
    expectError(
      await stack.http('GET', '/v1/payment?status=gone', { key: fresh.key }),
      400,
      'VALIDATION_FAILED',
      'status',
    );
    expectError(
      await stack.http('GET', '/v1/payment?createdFrom=yesterday', { key: fresh.key }),
      400,
      'VALIDATION_FAILED',
      'createdFrom',
    );
  });

  it('pages with no duplicate and no gap while payments are made between pages', async () => {
    const fresh = await sandboxMerchant(stack);
    const before: string[] = [];
    for (let i = 0; i < 9; i++) before.push((await fresh.purchase()).body.id);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await list(fresh, `limit=2${after ? `&startingAfter=${after}` : ''}`);
      if (!page.length) break;
      seen.push(...ids(page));
      after = page[page.length - 1].id;
      await fresh.purchase(); // a newer payment lands ahead of the cursor
    }
    expect(seen).toEqual([...before].reverse());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a payment answers its refunds (amount, reason, who, when); status stays captured until all is refunded', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    const first = await m.operate(p.id, 'refund', { amount: usd(300), reason: 'Damaged in transit' });
    expect(first.status).toBe(200);
    expect((await m.operate(p.id, 'refund', { amount: usd(200) })).status).toBe(200);
    const r = await m.get(p.id);
    expect(r.body.status).toBe('captured');
    expect(r.body.amountRefunded).toEqual(usd(500));
    expect(r.body.refunds).toEqual([
      expect.objectContaining({ amount: usd(300), reason: 'Damaged in transit', refundedBy: expect.any(Object) }),
      expect.objectContaining({ amount: usd(200), reason: null }),
    ]);
    expect(r.body.refunds[0].refundedBy.type).toBe('api_key');
    expect(Date.parse(r.body.refunds[0].createdAt)).not.toBeNaN();
    expect(ids(await list(m, 'status=partially_refunded'))).toContain(p.id);
    expect(ids(await list(m, 'status=captured'))).toContain(p.id);

    const long = await m.operate(p.id, 'refund', { amount: usd(100), reason: 'x'.repeat(256) });
    expectError(long, 400, 'VALIDATION_FAILED', 'reason');
    expect((await m.get(p.id)).body.refunds).toHaveLength(2);
  });
});
