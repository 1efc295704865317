import { AcquirerAttempt } from './acquirer-attempt';
import { answerOf } from './synced-answer';

const attempt = (detail: AcquirerAttempt['detail']): AcquirerAttempt => ({
  id: 'a1',
  paymentId: 'p1',
  merchantCode: 'M1',
  environment: 'sandbox',
  operation: 'refund',
  requestReference: 'rq_1',
  connectionCode: 'sandbox',
  acquirer: 'sandbox',
  idempotencyKey: null,
  detail,
});
const amount = { currency: 'USD', value: 300, exponent: 2 };
const modification = (kind: 'capture' | 'refund' | 'cancel') =>
  attempt({
    kind,
    amount,
    reference: null,
    decidedAt: '2030-01-01T00:00:00Z',
    reserved: { status: 'captured', amountCaptured: 1000, amountRefunded: 300 },
  });
const authorization = attempt({ kind: 'authorize', connectionName: 'Sandbox', earlier: [] });

describe('a status sync as the lost answer of an attempt', () => {
  it('settles a modification only by the status it leads to, or by its failure', () => {
    expect(answerOf(modification('refund'), { kind: 'refunded' })).toEqual({ kind: 'succeeded' });
    expect(answerOf(modification('capture'), { kind: 'captured' })).toEqual({ kind: 'succeeded' });
    expect(answerOf(modification('cancel'), { kind: 'cancelled' })).toEqual({ kind: 'succeeded' });
    // A partial refund leaves a captured payment: the status does not say whether it was made.
    expect(answerOf(modification('refund'), { kind: 'captured' })).toBeUndefined();
    expect(
      answerOf(modification('capture'), { kind: 'failed', acquirerReference: null, message: 'Processing error' }),
    ).toEqual({ kind: 'failed', message: 'Processing error' });
    expect(answerOf(modification('refund'), undefined)).toBeUndefined();
  });

  it('takes an authorization outcome as it is, and a bare status as an approval without details', () => {
    const declined = {
      kind: 'declined' as const,
      acquirerReference: 'x',
      refusalCode: {
        reasonCode: '5',
        reason: 'Do not honor',
        originalReasonCode: '5',
        originalReason: 'DO_NOT_HONOR',
        recoveryAction: 'retry' as const,
      },
    };
    expect(answerOf(authorization, declined)).toBe(declined);
    expect(answerOf(authorization, { kind: 'captured' })).toMatchObject({ kind: 'approved', authorizationCode: '' });
    expect(answerOf(authorization, { kind: 'cancelled' })).toMatchObject({ kind: 'failed' });
  });
});
