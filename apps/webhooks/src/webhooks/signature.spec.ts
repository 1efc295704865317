import { createHmac } from 'node:crypto';
import { newSigningSecret, providerSignatureHeader, signatureHeader, verifySignature } from './signature';

describe('webhook signatures', () => {
  const secret = newSigningSecret();
  const body = '{"id":"e1","type":"payment.captured"}';
  const t = 1_763_700_000;

  it('is t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signatureHeader(secret, body, t)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies with the secret within the tolerance, and only then', () => {
    const header = signatureHeader(secret, body, t);
    expect(verifySignature(header, body, secret, t + 299)).toBe(true);
    expect(verifySignature(header, body, secret, t + 301)).toBe(false);
    expect(verifySignature(header, `${body} `, secret, t)).toBe(false);
    expect(verifySignature(header, body, newSigningSecret(), t)).toBe(false);
    expect(verifySignature(header.replace(`t=${t}`, `t=${t + 1}`), body, secret, t)).toBe(false);
    expect(verifySignature('v1=abc', body, secret, t)).toBe(false);
  });

  it('accepts any of several v1 values (a receiver checking during a secret rotation)', () => {
    const other = signatureHeader(newSigningSecret(), body, t).split(',')[1];
    expect(verifySignature(`${signatureHeader(secret, body, t)},${other}`, body, secret, t)).toBe(true);
  });

  it('makes distinct whsec_ secrets of 256 bits', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSigningSecret()).not.toBe(secret);
  });
});

describe('provider signature (X-Therius-Signature)', () => {
  const body = '{"id":"e1","type":"payment.captured","event":"payment.captured"}';

  it('is sha256=<hex HMAC-SHA256(secret, raw body)>, one entry per live secret', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const hex = (s: string): string => createHmac('sha256', s).update(body).digest('hex');
    expect(providerSignatureHeader(current, body)).toBe(`sha256=${hex(current)}`);
    expect(providerSignatureHeader([current, previous], body)).toBe(`sha256=${hex(current)},sha256=${hex(previous)}`);
  });

  it('puts one v1 per live secret in Webhook-Signature, under one timestamp', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const header = signatureHeader([current, previous], body, 1_763_700_000);
    expect(header.split(',')).toHaveLength(3);
    expect(verifySignature(header, body, current, 1_763_700_000)).toBe(true);
    expect(verifySignature(header, body, previous, 1_763_700_000)).toBe(true);
  });
});
