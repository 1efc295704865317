import { createHmac } from 'node:crypto';
import {
  constructWebhookEvent,
  verifyTheriusSignature,
  verifyWebhookSignature,
  WebhookVerificationError,
} from '../src/webhooks';

const secret = 'whsec_test_secret';
const oldSecret = 'whsec_old_secret';
const body = JSON.stringify({ id: 'evt_1', type: 'payment.captured', data: { id: 'p1', note: 'ünïcode' } });
const hex = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
const t = 1_790_000_000;
const now = () => t * 1000 + 10_000;

describe('Webhook-Signature (t=…,v1=…)', () => {
  const header = `t=${t},v1=${hex(secret, `${t}.${body}`)}`;

  it('accepts the signature of the raw body, as a string or as bytes', () => {
    expect(verifyWebhookSignature(body, header, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, secret, { now })).toBe(true);
  });

  it('refuses another body, another secret, a timestamp outside the tolerance and a malformed header', () => {
    expect(verifyWebhookSignature(`${body} `, header, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, header, 'whsec_other', { now })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { now: () => (t + 301) * 1000 })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { now: () => (t + 301) * 1000, toleranceSeconds: 600 })).toBe(
      true,
    );
    expect(verifyWebhookSignature(body, `v1=${hex(secret, `${t}.${body}`)}`, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, undefined, secret, { now })).toBe(false);
  });

  it('accepts any of several signatures and any of several secrets (a secret roll)', () => {
    const several = `t=${t},v1=${hex(oldSecret, `${t}.${body}`)} v1=${'0'.repeat(64)}`;
    expect(verifyWebhookSignature(body, several, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, several, [secret, oldSecret], { now })).toBe(true);
  });
});

describe('X-Therius-Signature (sha256=<hex HMAC of the raw body>)', () => {
  const header = `sha256=${hex(secret, body)}`;

  it('accepts the HMAC of the raw body and refuses anything else', () => {
    expect(verifyTheriusSignature(body, header, secret)).toBe(true);
    expect(verifyTheriusSignature(body, header.toUpperCase().replace('SHA256', 'sha256'), secret)).toBe(true);
    expect(verifyTheriusSignature(`${body}x`, header, secret)).toBe(false);
    expect(verifyTheriusSignature(body, header, oldSecret)).toBe(false);
    expect(verifyTheriusSignature(body, `sha1=${hex(secret, body)}`, secret)).toBe(false);
    expect(verifyTheriusSignature(body, '', secret)).toBe(false);
  });

  it('accepts a header carrying several signatures, comma or space separated', () => {
    const rolled = `sha256=${hex(oldSecret, body)}, sha256=${hex(secret, body)}`;
    expect(verifyTheriusSignature(body, rolled, secret)).toBe(true);
    expect(verifyTheriusSignature(body, rolled.replace(', ', ' '), oldSecret)).toBe(true);
    expect(verifyTheriusSignature(body, `sha256=${'a'.repeat(64)} sha256=${'b'.repeat(64)}`, secret)).toBe(false);
  });
});

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
