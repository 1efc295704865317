import { connect, NatsConnection } from 'nats';
import { PaymentsSubjects, PingSubjects } from '@app/contracts';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';

/** The services' side of a command, spoken to directly on NATS the way any internal caller could. */
describe('command server (NATS commands into a service)', () => {
  let stack: TestStack;
  let nc: NatsConnection;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['payments'], gateway: false });
    nc = await connect({ servers: runState().natsUrl });
  });
  afterAll(async () => {
    await nc.close();
    await stack.stop();
  });

  const ctx = { requestId: 'req-cmd-1', merchantCode: 'cmdmerchant', environment: 'sandbox' };
  const send = async (subject: string, packet: unknown) => {
    const raw = typeof packet === 'string' ? packet : JSON.stringify(packet);
    const reply = await nc.request(subject, Buffer.from(raw), { timeout: 5_000 });
    return reply.json<{ id?: unknown; response?: Record<string, unknown>; err?: Record<string, unknown> }>();
  };

  it('answers a command with its response under the packet id', async () => {
    const r = await send(PingSubjects.payments, { pattern: PingSubjects.payments, id: 'p-1', data: { ctx, body: {} } });
    expect(r.id).toBe('p-1');
    expect(r.err).toBeUndefined();
    expect(r.response).toMatchObject({ service: 'payments', merchantCode: 'cmdmerchant', requestId: 'req-cmd-1' });
  });

  it('refuses a command without a well-formed caller, or that is not JSON, as VALIDATION_FAILED', async () => {
    for (const bad of [{ body: {} }, { ctx: { ...ctx, environment: 'staging' }, body: {} }]) {
      const r = await send(PingSubjects.payments, { id: 'p-2', data: bad });
      expect(r).toMatchObject({ id: 'p-2', err: { code: 'VALIDATION_FAILED', param: 'ctx' } });
    }
    const notJson = await send(PingSubjects.payments, 'not json');
    expect(notJson.err).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('validates the body against the handler class and names the first broken field', async () => {
    const body = { merchantCode: 'cmdmerchant', orderCode: 'o-1', amount: { currency: 'USD', value: -5, exponent: 2 } };
    const r = await send(PaymentsSubjects.purchase, { id: 'p-3', data: { ctx, body } });
    expect(r.err).toMatchObject({ code: 'VALIDATION_FAILED', param: 'amount.value' });
  });
  it('refuses text that cannot be stored (NUL, an unpaired surrogate) anywhere in a command, naming the field', async () => {
    const body = {
      merchantCode: 'cmdmerchant',
      orderCode: 'o-2',
      amount: { currency: 'USD', value: 500, exponent: 2 },
      card: { cardData: { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2040', cvv: '123' } },
    };
    const cases: Array<[unknown, unknown, string]> = [
      [ctx, { ...body, orderCode: 'o\u0000' }, 'orderCode'],
      [ctx, { ...body, metadata: { note: 'x\uD800' } }, 'metadata.note'],
      [ctx, { ...body, metadata: { ['k\uDC00']: 'v' } }, 'metadata'],
      [
        ctx,
        { ...body, card: { cardData: { ...body.card.cardData, cardholderName: 'A\u0000' } } },
        'card.cardData.cardholderName',
      ],
      [{ ...ctx, idempotencyKey: 'k\u0000' }, body, 'ctx.idempotencyKey'],
    ];
    for (const [i, [c, b, param]] of cases.entries()) {
      const r = await send(PaymentsSubjects.purchase, { id: `p-4-${i}`, data: { ctx: c, body: b } });
      expect(r.err).toMatchObject({ code: 'VALIDATION_FAILED', param });
    }
    const ok = await send(PaymentsSubjects.purchase, { id: 'p-5', data: { ctx, body } });
    expect(ok.response).toMatchObject({ status: 'captured' });
  });
});
