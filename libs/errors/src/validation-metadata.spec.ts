import { Type } from 'class-transformer';
import { IsInt, IsString, Min, ValidateNested, getMetadataStorage } from 'class-validator';
import { DomainError } from './domain-error';
import { validatedBody } from './validation';

class Inner {
  @IsInt() @Min(1) value!: number;
}
class Outer {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

describe('validatedBody with memoized class-validator metadata', () => {
  it('keeps validating by the same rules, run after run: valid bodies pass, the first broken rule is named', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await validatedBody(Outer, { name: 'a', inner: { value: 2 }, extra: true });
      expect(ok).toBeInstanceOf(Outer);
      expect(ok.inner).toBeInstanceOf(Inner);
      expect(ok).not.toHaveProperty('extra');
      await expect(validatedBody(Outer, { name: 'a', inner: { value: 0 } })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        param: 'inner.value',
      });
    }
  });

  it('answers the same rule objects for a class until a rule is added, then includes the new rule', async () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Inner, '', false, false);
    expect(storage.getTargetValidationMetadatas(Inner, '', false, false)).toBe(first);
    class Later {
      @IsString() late!: string;
    }
    const again = storage.getTargetValidationMetadatas(Inner, '', false, false);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    await expect(validatedBody(Later, { late: 1 })).rejects.toBeInstanceOf(DomainError);
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const body of ['text', 3, [{ name: 'a' }]]) {
      await expect(validatedBody(Outer, body)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});
