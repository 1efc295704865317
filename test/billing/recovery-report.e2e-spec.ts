import { TestStack } from '../support/stack';
import { cardData, CARDS } from './billing-fixtures';
import { TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(180_000);

const FEB = 'from=2028-02-01&to=2028-02-29';

/**
 * What the merchant sees of dunning (GET /v1/subscription/recovery) and of its payments (GET /v1/payment/stats):
 * subscriptions driven through dunning by the sandbox clock and the MIT test cards, every figure exact.
 */
describe('recovered revenue and payment figures, per merchant and environment', () => {
  let stack: TestStack;
  let c: TimeClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await timeStack();
    c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const basic = await c.m.plan({ name: 'Basic', amount: 1700, currency: 'EUR' });
    const pro = await c.m.plan({ name: 'Pro', amount: 2500, currency: 'EUR' });
    const enrol = async (name: string, planId: number, card: string) => {
      const s = await c.m.subscription({ planId, customerEmail: `${name}@example.com`, card: cardData(card) });
      ids[name] = s.id;
    };
    await enrol('funds', basic.id, CARDS.mitInsufficientFunds); // 51, recovered by a new card
    await enrol('fraud', pro.id, CARDS.mitFraud); // 59 terminal: suspended at once, lost
    await enrol('expired', basic.id, CARDS.mitExpired); // 54, still in dunning
    await enrol('fine', pro.id, '4111111111111111'); // paid on time: not dunning
    await c.advance({ to: '2028-02-10T12:00:00Z' });
    const r = await c.op(ids.funds, 'payment-method', { card: cardData() });
    expect(r.body).toMatchObject({ status: 'active' });
  });
  afterAll(() => stack?.stop());

  it('explore', async () => {
    const rec = await c.m.get(`/v1/subscription/recovery?${FEB}`);
    console.log(JSON.stringify({ ...rec.body, recoveredByDay: rec.body.recoveredByDay?.filter((d: any) => d.count) }, null, 1));
    const st = await c.m.get(`/v1/payment/stats?from=2028-01-01&to=2028-02-29`);
    console.log(JSON.stringify({ ...st.body, byDay: st.body.byDay?.filter((d: any) => d.attempted) }, null, 1));
  });
});
