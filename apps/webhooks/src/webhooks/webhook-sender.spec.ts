import { answerExcerpt, RESPONSE_EXCERPT_BYTES } from './webhook-sender';

describe("the kept start of a receiver's answer", () => {
  it('is null for an empty answer and the text itself for a short one', () => {
    expect(answerExcerpt(Buffer.alloc(0))).toBeNull();
    expect(answerExcerpt(Buffer.from('{"received":true}'))).toBe('{"received":true}');
  });

  it(`keeps ${RESPONSE_EXCERPT_BYTES} bytes; a character cut in two reads as U+FFFD`, () => {
    const text = `${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}é and more`;
    expect(answerExcerpt(Buffer.from(text))).toBe(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}\uFFFD`);
  });

  it('drops NUL, which a text column refuses, and keeps the rest', () => {
    expect(answerExcerpt(Buffer.from('bad\u0000answer\n'))).toBe('badanswer\n');
  });
});
