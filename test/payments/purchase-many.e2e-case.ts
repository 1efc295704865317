import { randomUUID } from 'node:crypto';
import {
  CallerContext,
  PaymentResponse,
  PaymentsSubjects,
  PurchaseManyCommand,
  PurchaseManyItem,
  PurchaseManyResponse,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { cardData, PaymentsClient, paymentsQuery, sandboxMerchant, VISA } from './payments-fixtures';
import { TestStack } from '../support/stack';

/** The sandbox card that declines (sandbox-cards.ts). */
const DECLINED = '4000000000000002';

/**
 * `cmd.payments.purchase.many` (billing's renewal charges): several purchases in one message, each run as the
 * purchase command runs it alone, with its own Idempotency-Key and its own answer.
 */
describe('purchaseMany: several purchases in one command, each answering on its own', () => {
  let stack: TestStack;
  let client: PaymentsClient;
  let rpc: RpcClient;
  let token: string;

  beforeAll(async () => {
    [stack, client] = await TestStack.startWith(sandboxMerchant);
    rpc = stack.gateways[0].get(RpcClient);
    const tokenized = await client.purchase({
      card: cardData(VISA, { tokenize: true }),
      shopper: { id: 'shopper-many' },
    });
    token = tokenized.body.token.token;
  });
  afterAll(() => stack.stop());

  const ctx = (): CallerContext => ({
    requestId: randomUUID(),
    environment: 'sandbox',
    merchantCode: client.merchantCode,
  });
  const mit = (orderCode: string, o: Record<string, unknown> = {}): PurchaseManyItem => ({
    idempotencyKey: randomUUID(),
    body: {
      merchantCode: client.merchantCode,
      orderCode,
      amount: { currency: 'USD', value: 1250, exponent: 2 },
      card: { tokenData: { token }, cardOnFile: { type: 'recurring', initiator: 'merchant' } },
      ...o,
    } as PurchaseManyItem['body'],
  });
  const send = (items: PurchaseManyItem[]) =>
    rpc.send<PurchaseManyResponse, PurchaseManyCommand>(PaymentsSubjects.purchaseMany, ctx(), { items });

  it('charges each item with its own key; a bad item, a decline and a taken order code fail alone', async () => {
    const run = randomUUID().slice(0, 8);
    const good = [mit(`many-${run}-1`), mit(`many-${run}-2`)];
    const invalid = mit(`many-${run}-3`, { amount: { currency: 'USD', value: -5, exponent: 2 } });
    const declined = mit(`many-${run}-4`, { card: cardData(DECLINED) });
    const sameOrder = mit(`many-${run}-1`);
    const { results } = await send([...good, invalid, declined, sameOrder]);
    expect(results).toHaveLength(5);

    expect(results[1]).toEqual({
      response: expect.objectContaining({ status: 'captured', orderCode: `many-${run}-2` }),
    });
    expect(results[2]).toEqual({ err: expect.objectContaining({ code: 'VALIDATION_FAILED', param: 'amount.value' }) });
    expect(results[3]).toEqual({ response: expect.objectContaining({ status: 'declined' }) });
    // Items 0 and 4 run side by side with the same order code: exactly one holds it, the other is refused.
    const sameCode = [results[0], results[4]];
    expect(sameCode.filter((r) => 'response' in r && r.response.status === 'captured')).toHaveLength(1);
    expect(sameCode.filter((r) => 'err' in r && r.err.code === 'DUPLICATE_ORDER_CODE')).toHaveLength(1);

    const rows = await paymentsQuery<{ order_code: string; status: string }>(
      stack,
      'SELECT order_code, status FROM payments WHERE merchant_code = $1 AND order_code LIKE $2 ORDER BY order_code',
      [client.merchantCode, `many-${run}-%`],
    );
    expect(rows).toEqual([
      { order_code: `many-${run}-1`, status: 'captured' },
      { order_code: `many-${run}-2`, status: 'captured' },
      { order_code: `many-${run}-4`, status: 'declined' },
    ]);
  });

  it('an item sent again with its key answers the first payment, in a batch or as a single purchase', async () => {
    const item = mit(`again-${randomUUID().slice(0, 8)}`);
    const [first] = (await send([item])).results;
    const [again, other] = (await send([item, mit(`other-${randomUUID().slice(0, 8)}`)])).results;
    expect('response' in first && 'response' in again && 'response' in other).toBe(true);
    const id = (r: typeof first) => ('response' in r ? r.response.id : undefined);
    expect(id(again)).toBe(id(first));
    expect(id(other)).not.toBe(id(first));
    // The purchase command shares the idempotency record: the same key and body answer the same payment.
    const single = await rpc.send<PaymentResponse>(
      PaymentsSubjects.purchase,
      { ...ctx(), idempotencyKey: item.idempotencyKey },
      item.body,
    );
    expect(single.id).toBe(id(first));
    const [{ n }] = await paymentsQuery<{ n: number }>(
      stack,
      'SELECT count(*)::int AS n FROM payments WHERE merchant_code = $1 AND order_code = $2',
      [client.merchantCode, item.body.orderCode],
    );
    expect(n).toBe(1);
  });

  it('a command without items, or an item without a key, is VALIDATION_FAILED', async () => {
    await expect(send([])).rejects.toMatchObject({ code: 'VALIDATION_FAILED', param: 'items' });
    const { results } = await send([{ ...mit(`nokey-${randomUUID().slice(0, 8)}`), idempotencyKey: '' }]);
    expect(results[0]).toEqual({
      err: expect.objectContaining({ code: 'VALIDATION_FAILED', param: 'items[0].idempotencyKey' }),
    });
  });
});
