import { createHmac } from 'node:crypto';
import {
  newSigningSecret,
  providerSignatureHeader,
  signatureHeader,
  signatureHeaders,
  verifyTheriusSignature,
  verifyWebhookSignature,
} from '../src/signature';

// The one signature implementation (webhooks service, CLI, typed client). Known-answer vectors computed with
// `printf '%s' '<t>.<body>' | openssl dgst -sha256 -hmac '<secret>'`, independently of this code.
const VECTOR = {
  secret: 'whsec_test_secret',
  oldSecret: 'whsec_old_secret',
  body: '{"id":"evt_1","type":"payment.captured"}',
  t: 1_790_000_000,
  v1: 'e6b7c90194ddb8b29759cc6786c74e43f83846c8812b994335d6ef59c897e269',
  v1Old: 'f3076fe752ec3994cb8f709d3ebc6e6e5cb7a374035430d1c4b90e9d61c71596',
  sha256: 'cdca8c88fdcd697aa606f91aad9612b0ddaf5dcbe9c8178ac04ce96497af387a',
};
const { secret, oldSecret, t } = VECTOR;
const hex = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
const now = () => t * 1000 + 10_000;

describe('signing (known-answer vectors)', () => {
  it('Webhook-Signature is t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', () => {
    expect(signatureHeader(secret, VECTOR.body, t)).toBe(`t=${t},v1=${VECTOR.v1}`);
    expect(signatureHeader(secret, Buffer.from(VECTOR.body), t)).toBe(`t=${t},v1=${VECTOR.v1}`);
  });

  it('puts one v1 per live secret under one timestamp, the current one first', () => {
    expect(signatureHeader([secret, oldSecret], VECTOR.body, t)).toBe(`t=${t},v1=${VECTOR.v1},v1=${VECTOR.v1Old}`);
  });

  it('X-Therius-Signature is sha256=<hex HMAC-SHA256(secret, raw body)>, one entry per live secret', () => {
    expect(providerSignatureHeader(secret, VECTOR.body)).toBe(`sha256=${VECTOR.sha256}`);
    const previous = hex(oldSecret, VECTOR.body);
    expect(providerSignatureHeader([secret, oldSecret], VECTOR.body)).toBe(
      `sha256=${VECTOR.sha256},sha256=${previous}`,
    );
  });

  it('signatureHeaders (what the CLI forwards) carries both, signed at the whole second of now', () => {
    expect(signatureHeaders(secret, VECTOR.body, t * 1000 + 999)).toEqual({
      'webhook-signature': `t=${t},v1=${VECTOR.v1}`,
      'x-therius-signature': `sha256=${VECTOR.sha256}`,
    });
  });

  it('makes distinct whsec_ secrets of 256 bits', () => {
    const made = newSigningSecret();
    expect(made).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(made.slice(6), 'base64url')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(made);
  });
});

describe('verifying Webhook-Signature (t=…,v1=…)', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'payment.captured', data: { id: 'p1', note: 'ünïcode' } });
  const header = `t=${t},v1=${hex(secret, `${t}.${body}`)}`;

  it('accepts the known-answer vector and what signatureHeader makes, as a string or as bytes', () => {
    expect(verifyWebhookSignature(VECTOR.body, `t=${t},v1=${VECTOR.v1}`, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(body, header, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), signatureHeader(secret, body, t), secret, { now })).toBe(true);
  });

  it('refuses another body, another secret, a timestamp outside the tolerance and a malformed header', () => {
    expect(verifyWebhookSignature(`${body} `, header, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, header, 'whsec_other', { now })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { now: () => (t + 299) * 1000 })).toBe(true);
    expect(verifyWebhookSignature(body, header, secret, { now: () => (t + 301) * 1000 })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { now: () => (t + 301) * 1000, toleranceSeconds: 600 })).toBe(
      true,
    );
    expect(verifyWebhookSignature(body, header.replace(`t=${t}`, `t=${t + 1}`), secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, `v1=${hex(secret, `${t}.${body}`)}`, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, `t=${t},v1=abc`, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, undefined, secret, { now })).toBe(false);
  });

  it('accepts any of several signatures and any of several secrets (a secret roll)', () => {
    const several = `t=${t},v1=${hex(oldSecret, `${t}.${body}`)} v1=${'0'.repeat(64)}`;
    expect(verifyWebhookSignature(body, several, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, several, [secret, oldSecret], { now })).toBe(true);
    const rolled = signatureHeader([newSigningSecret(), oldSecret], body, t);
    expect(verifyWebhookSignature(body, rolled, oldSecret, { now })).toBe(true);
  });
});

describe('verifying X-Therius-Signature (sha256=<hex HMAC of the raw body>)', () => {
  const body = VECTOR.body;
  const header = `sha256=${VECTOR.sha256}`;

  it('accepts the HMAC of the raw body and refuses anything else', () => {
    expect(verifyTheriusSignature(body, header, secret)).toBe(true);
    expect(verifyTheriusSignature(body, header.toUpperCase().replace('SHA256', 'sha256'), secret)).toBe(true);
    expect(verifyTheriusSignature(`${body}x`, header, secret)).toBe(false);
    expect(verifyTheriusSignature(body, header, oldSecret)).toBe(false);
    expect(verifyTheriusSignature(body, `sha1=${VECTOR.sha256}`, secret)).toBe(false);
    expect(verifyTheriusSignature(body, '', secret)).toBe(false);
  });

  it('accepts a header carrying several signatures, comma or space separated', () => {
    const rolled = providerSignatureHeader([oldSecret, secret], body).replace(',', ', ');
    expect(verifyTheriusSignature(body, rolled, secret)).toBe(true);
    expect(verifyTheriusSignature(body, rolled.replace(', ', ' '), oldSecret)).toBe(true);
    expect(verifyTheriusSignature(body, `sha256=${'a'.repeat(64)} sha256=${'b'.repeat(64)}`, secret)).toBe(false);
  });
});
