import { boletoCodes, dueFactor, mod10, mod11 } from './boleto-code';
import { crc16, decimalString, pixPayload } from './pix-code';
import { abaRoutingValid } from './apm-request';

describe('Pix BR Code', () => {
  it('CRC-16/CCITT-FALSE matches the reference check value', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('builds a payload whose CRC verifies and that carries the amount', () => {
    const p = pixPayload({ pixKey: 'key-1', amount: '10.50', merchantName: 'Açaí & Co', txid: 'abc-123' });
    expect(p.startsWith('000201')).toBe(true);
    expect(p).toContain('5405' + '10.50');
    expect(p).toContain('ACAI  CO');
    expect(p.slice(-4)).toBe(crc16(p.slice(0, -4)));
  });

  it('formats minor units without floats', () => {
    expect(decimalString(1050, 2)).toBe('10.50');
    expect(decimalString(5, 2)).toBe('0.05');
    expect(decimalString(700, 0)).toBe('700');
  });
});

describe('boleto', () => {
  it('due factor restarts at 1000 on 2025-02-22', () => {
    expect(dueFactor('2025-02-22')).toBe('1000');
    expect(dueFactor('2025-02-23')).toBe('1001');
  });

  it('barcode and line agree and their check digits verify', () => {
    const { barcode, line } = boletoCodes({
      bank: '001',
      dueDate: '2030-01-31',
      amountCents: 12345,
      freeField: '1234567890123456789012345',
    });
    expect(barcode).toMatch(/^\d{44}$/);
    expect(line).toMatch(/^\d{47}$/);
    expect(Number(barcode[4])).toBe(mod11(barcode.slice(0, 4) + barcode.slice(5)));
    expect(Number(line[9])).toBe(mod10(line.slice(0, 9)));
    expect(Number(line[20])).toBe(mod10(line.slice(10, 20)));
    expect(Number(line[31])).toBe(mod10(line.slice(21, 31)));
    expect(line[32]).toBe(barcode[4]);
    expect(line.slice(33)).toBe(barcode.slice(5, 19));
    expect(barcode.slice(9, 19)).toBe('0000012345');
  });
});

describe('ABA routing number', () => {
  it.each(['011000015', '110000000', '021000021'])('accepts %s', (n) => expect(abaRoutingValid(n)).toBe(true));
  it.each(['011000016', '123456789', '12345678'])('refuses %s', (n) => expect(abaRoutingValid(n)).toBe(false));
});
