import { parseApm } from './apm-request';

const TODAY = '2030-05-10';

describe('parseApm', () => {
  it('accepts each method with its own fields and drops the others', () => {
    expect(
      parseApm('pix', { expiresInSeconds: 600, accountNumber: '1' }, { currency: 'BRL', value: 100 }, TODAY),
    ).toEqual({
      method: 'pix',
      data: expect.objectContaining({ expiresInSeconds: 600 }),
    });
    const boleto = parseApm(
      'boleto',
      { payerDocument: '12345678000195', payerName: 'ACME', dueDate: TODAY },
      { currency: 'BRL', value: 100 },
      TODAY,
    );
    expect(boleto.method).toBe('boleto');
    const ach = { accountHolderName: 'J', accountNumber: '1234', routingNumber: '021000021', accountType: 'savings' };
    expect(parseApm('ach', ach, { currency: 'USD', value: 1 }, TODAY).method).toBe('ach');
  });

  it.each([
    ['pix', undefined, { currency: 'USD', value: 100 }, 'amount.currency'],
    ['pix', undefined, { currency: 'BRL', value: 0 }, 'amount.value'],
    ['pix', { expiresInSeconds: 10 }, { currency: 'BRL', value: 100 }, 'apm.expiresInSeconds'],
    ['boleto', { payerName: 'A' }, { currency: 'BRL', value: 100 }, 'apm.payerDocument'],
    [
      'boleto',
      { payerDocument: '12345678909', payerName: 'A', dueDate: '2030-02-30x' },
      { currency: 'BRL', value: 1 },
      'apm.dueDate',
    ],
    ['boleto', { payerDocument: '12345678909', payerName: 'A' }, { currency: 'BRL', value: 1e10 }, 'amount.value'],
    [
      'ach',
      { accountHolderName: 'J', accountNumber: '12', routingNumber: '021000021', accountType: 'savings' },
      { currency: 'USD', value: 1 },
      'apm.accountNumber',
    ],
    [
      'ach',
      { accountHolderName: 'J', accountNumber: '1234', routingNumber: '021000022', accountType: 'savings' },
      { currency: 'USD', value: 1 },
      'apm.routingNumber',
    ],
    ['ach', 'not an object', { currency: 'USD', value: 1 }, 'apm'],
  ] as const)('%s %j → 400 naming %s', (method, apm, amount, param) => {
    expect(() => parseApm(method, apm, amount, TODAY)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', param }),
    );
  });
});
