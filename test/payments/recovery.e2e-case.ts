import { randomUUID } from 'node:crypto';
import { uuidv7 } from '@app/clock';
import { ConnectorConnection } from '../../apps/payments/src/connector/provider-connector';
import { SandboxAcquirerConnector } from '../../apps/payments/src/connector/sandbox-acquirer.connector';
import { AcquirerAttempt } from '../../apps/payments/src/reservation/acquirer-attempt';
import { RecoveryLoop } from '../../apps/payments/src/recovery/recovery.loop';
import { TestStack } from '../support/stack';
import { cardData, PaymentsClient, paymentsQuery, sandboxMerchant, usd } from './payments-fixtures';

/**
 * The recovery sweep on attempts left behind between reserve and record (as a crash leaves them; the crash
 * itself is crash-recovery.e2e-spec.ts): a refund and a 3DS resume, the acquirer having acted or not.
 */
describe('recovery of capture, refund, cancel and resume attempts', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let sweeper: RecoveryLoop;
  let sandbox: SandboxAcquirerConnector;
  /** The connection a payment went through, as a connector call takes it (the simulator needs no credentials). */
  const viaSandbox = (p: { merchantCode?: unknown; connectionCode?: unknown }): ConnectorConnection => ({
    merchantCode: String(p.merchantCode ?? ''),
    connectionCode: String(p.connectionCode ?? 'sandbox'),
    environment: 'sandbox',
    credentials: {},
  });

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant, { env: { RECOVERY_SWEEP_MS: '0' } });
    const app = stack.services.get('payments')![0];
    sweeper = app.get(RecoveryLoop);
    sandbox = app.get(SandboxAcquirerConnector);
  });
  afterAll(() => stack.stop());

  /** An attempt row and its key in progress, reserved an hour ago, as a process that died leaves them. */
  async function orphan(a: Omit<AcquirerAttempt, 'id' | 'merchantCode' | 'environment' | 'acquirer'>): Promise<void> {
    await paymentsQuery(
      stack,
      `INSERT INTO acquirer_attempts (id, payment_id, merchant_code, environment, operation, request_reference,
         connection_code, acquirer, idempotency_key, detail, reserved_at)
       VALUES ($1, $2, $3, 'sandbox', $4, $5, $6, 'sandbox', $7, $8, now() - interval '1 hour')`,
      [
        uuidv7(),
        a.paymentId,
        m.merchantCode,
        a.operation,
        a.requestReference,
        a.connectionCode,
        a.idempotencyKey,
        a.detail,
      ],
    );
    if (a.idempotencyKey) {
      await paymentsQuery(
        stack,
        `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, operation, request_hash)
         VALUES ($1, 'sandbox', $2, $3, 'h')`,
        [m.merchantCode, a.idempotencyKey, a.operation],
      );
    }
  }

  const refundAttempt = (paymentId: string, reference: string, key: string) => ({
    paymentId,
    operation: 'refund' as const,
    requestReference: reference,
    connectionCode: 'sandbox',
    idempotencyKey: key,
    detail: {
      kind: 'refund' as const,
      amount: usd(300),
      reference: 'r-1',
      decidedAt: new Date().toISOString(),
      reserved: { status: 'captured' as const, amountCaptured: 1000, amountRefunded: 300 },
    },
  });
  const keyRow = (key: string) =>
    paymentsQuery<{ response_status: number | null; response_body: { status: string } | null }>(
      stack,
      'SELECT response_status, response_body FROM idempotency_keys WHERE idempotency_key = $1',
      [key],
    );

  it('a refund the acquirer made is recorded once, with its event and its key answered', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    const connectionCode = p.connectionCode as string;
    const reference = `rq_${randomUUID()}`;
    const key = randomUUID();
    await sandbox.refund(viaSandbox(p), {
      paymentId: p.id,
      reference,
      acquirerReference: 'sbx_refunded',
      amount: usd(300),
    });
    await orphan({ ...refundAttempt(p.id, reference, key), connectionCode });
    // While it is in flight, the next refund counts it.
    expect((await m.refund(p.id, 800)).body.error.code).toBe('AMOUNT_EXCEEDS_AVAILABLE');

    expect(await sweeper.runOnce()).toBe(1);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(300) });
    expect(await keyRow(key)).toEqual([
      { response_status: 200, response_body: expect.objectContaining({ status: 'refunded' }) },
    ]);
    const events = await paymentsQuery(
      stack,
      "SELECT id FROM outbox WHERE type = 'payment.refunded' AND envelope->'data'->>'id' = $1",
      [p.id],
    );
    expect(events).toHaveLength(1);
    expect(await sweeper.runOnce()).toBe(0);
  });

  it('a refund the acquirer never saw is released: the key is free and nothing changed', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    const key = randomUUID();
    await orphan({ ...refundAttempt(p.id, `rq_${randomUUID()}`, key), connectionCode: p.connectionCode });
    expect(await sweeper.runOnce()).toBe(1);
    expect(await keyRow(key)).toEqual([]);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(0) });
    expect((await m.refund(p.id, 1000, key)).body.status).toBe('refunded');
  });

  it('a 3DS resume that never reached the acquirer gives the session back; one that did is recorded', async () => {
    const challenged = async () => {
      const p = (await m.purchase({ card: cardData('4000002500003155') })).body;
      const sessionId = p.actionRequired.sessionId as string;
      await stack.http('POST', `/v1/sandbox/3ds/${sessionId}`, { key: m.key, body: { outcome: 'authenticated' } });
      const [session] = await paymentsQuery<{ acquirer_reference: string }>(
        stack,
        "UPDATE payment_sessions SET status = 'consumed', consumed_at = now() WHERE id = $1 RETURNING acquirer_reference",
        [sessionId],
      );
      const detail = {
        kind: 'complete_challenge',
        sessionId,
        authenticated: true,
        capture: true,
        acquirerReference: session.acquirer_reference,
      };
      const attempt = {
        paymentId: p.id,
        operation: 'resume' as const,
        requestReference: `rq_${sessionId}`,
        connectionCode: p.connectionCode,
        idempotencyKey: null,
        detail: detail as AcquirerAttempt['detail'],
      };
      return { p, sessionId, attempt, detail };
    };

    const lost = await challenged();
    await orphan(lost.attempt);
    expect(await sweeper.runOnce()).toBe(1);
    const resumed = await stack.http('POST', '/v1/payment/resume', { body: { sessionId: lost.sessionId } });
    expect([resumed.status, resumed.body.status]).toEqual([200, 'captured']);

    const answered = await challenged();
    await sandbox.completeChallenge(viaSandbox(answered.p), {
      reference: answered.attempt.requestReference,
      acquirerReference: answered.detail.acquirerReference,
      authenticated: true,
      capture: true,
      amount: usd(1000),
    });
    await orphan(answered.attempt);
    expect(await sweeper.runOnce()).toBe(1);
    expect((await m.get(answered.p.id)).body.status).toBe('captured');
  });
});
