import { createHmac } from 'node:crypto';
import { constructWebhookEvent, WebhookVerificationError } from '../src/webhooks';

const secret = 'whsec_test_secret';
const oldSecret = 'whsec_old_secret';
const body = JSON.stringify({ id: 'evt_1', type: 'payment.captured', data: { id: 'p1', note: 'ünïcode' } });
const hex = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
const t = 1_790_000_000;
const now = () => t * 1000 + 10_000;

describe('constructWebhookEvent', () => {
  it('answers the parsed event when Webhook-Signature checks out, whatever the header case', () => {
    const standard = { 'Webhook-Signature': `t=${t},v1=${hex(secret, `${t}.${body}`)}` };
    expect(constructWebhookEvent(body, standard, secret, { now }).type).toBe('payment.captured');
    const headers = new Headers(standard);
    expect(constructWebhookEvent(body, headers, secret, { now }).data).toEqual({ id: 'p1', note: 'ünïcode' });
  });

  it('refuses a valid X-Therius-Signature without Webhook-Signature (a replay verifies), unless opted in', () => {
    const therius = new Headers({ 'x-therius-signature': `sha256=${hex(secret, body)}` });
    expect(() => constructWebhookEvent(body, therius, secret)).toThrow(WebhookVerificationError);
    expect(() => constructWebhookEvent(body, therius, secret)).toThrow(/acceptTheriusSignature/);
    expect(() => constructWebhookEvent(body, therius, secret, { acceptTheriusSignature: false })).toThrow(
      WebhookVerificationError,
    );
    const accepted = constructWebhookEvent(body, therius, secret, { acceptTheriusSignature: true });
    expect(accepted.data).toEqual({ id: 'p1', note: 'ünïcode' });
    const wrong = { 'X-Therius-Signature': `sha256=${hex(oldSecret, body)}` };
    expect(() => constructWebhookEvent(body, wrong, secret, { acceptTheriusSignature: true })).toThrow(
      /does not match/,
    );
  });

  it('throws on a missing or wrong signature, and a Webhook-Signature that fails is not rescued by the other', () => {
    expect(() => constructWebhookEvent(body, {}, secret)).toThrow(WebhookVerificationError);
    const both = {
      'webhook-signature': `t=${t},v1=${'0'.repeat(64)}`,
      'x-therius-signature': `sha256=${hex(secret, body)}`,
    };
    expect(() => constructWebhookEvent(body, both, secret, { now })).toThrow(/does not match/);
    expect(() => constructWebhookEvent(body, both, secret, { now, acceptTheriusSignature: true })).toThrow(
      /does not match/,
    );
  });
});
