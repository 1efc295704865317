/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as the Pix BR Code's field 63 uses. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const tlv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** Only what the EMV character set and the field lengths allow. */
const emvText = (s: string, max: number): string =>
  s
    .normalize('NFD')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .toUpperCase()
    .slice(0, max) || 'X';

/**
 * A Pix "copia e cola" payload (EMV MPM BR Code) for the sandbox: payload format, the Pix key, amount in
 * BRL, merchant name and city, the transaction id, and the CRC. `amount` is a decimal string ("10.50").
 */
export function pixPayload(o: { pixKey: string; amount: string; merchantName: string; txid: string }): string {
  const body =
    tlv('00', '01') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', o.pixKey)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', o.amount) +
    tlv('58', 'BR') +
    tlv('59', emvText(o.merchantName, 25)) +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', emvText(o.txid, 25).replace(/ /g, '')));
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crc16(withCrcHeader);
}

/** Minor units as a decimal string without floating point: (1050, 2) → "10.50". */
export function decimalString(value: number, exponent: number): string {
  const digits = String(value).padStart(exponent + 1, '0');
  return exponent ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
}
