import { DomainError } from './domain-error';
import { assertStorableText, unstorableText } from './storable-text';

describe('unstorableText', () => {
  it('passes ordinary text, paired surrogates (emoji) and non-strings', () => {
    const body = { a: 'héllo 😀', n: 1, b: true, z: null, list: ['x', { y: '\uD83D\uDE00' }], ключ: 'значение' };
    expect(unstorableText(body)).toBeUndefined();
    expect(unstorableText(Buffer.from([0]))).toBeUndefined();
  });

  it.each([
    ['NUL', '\u0000', /NUL character/],
    ['a lone high surrogate', 'a\uD800b', /unpaired UTF-16 surrogate/],
    ['a high surrogate at the end', 'ab\uDBFF', /unpaired UTF-16 surrogate/],
    ['a lone low surrogate', '\uDC00x', /unpaired UTF-16 surrogate/],
    ['two high surrogates', '\uD800\uD800\uDC00', /unpaired UTF-16 surrogate/],
  ])('names the path of %s in a value', (_, bad, message) => {
    const found = unstorableText({ ok: 'x', metadata: { note: bad } });
    expect(found).toEqual({ param: 'metadata.note', message: expect.stringMatching(message) });
    expect(found!.message).toMatch(/^metadata\.note contains/);
  });

  it('names array items by index and keys by the object that holds them', () => {
    expect(unstorableText({ events: [{ m: 'a' }, { m: '\0' }] })?.param).toBe('events.1.m');
    expect(unstorableText({ metadata: { ['k\0']: 'v' } })).toEqual({
      param: 'metadata',
      message: expect.stringMatching(/^A key of metadata contains a NUL/),
    });
    expect(unstorableText({ ['\uD800']: 1 })).toEqual({ param: undefined, message: expect.stringMatching(/the body/) });
    expect(unstorableText('\0', 'ctx')?.param).toBe('ctx');
    expect(unstorableText({ idempotencyKey: '\0' }, 'ctx')?.param).toBe('ctx.idempotencyKey');
  });

  it('walks a deeply nested value without exhausting the stack', () => {
    let deep: unknown = '\0';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableText(deep)?.param).toMatch(/^0(\.0)+$/);
  });

  it('assertStorableText throws 400 VALIDATION_FAILED naming the field', () => {
    expect(() => assertStorableText({ title: 'ok' })).not.toThrow();
    let thrown: unknown;
    try {
      assertStorableText({ title: 'x\uDFFF' });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ code: 'VALIDATION_FAILED', param: 'title', status: 400 });
  });
});
