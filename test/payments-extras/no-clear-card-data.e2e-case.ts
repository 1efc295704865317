import { Client } from 'pg';
import { FUTURE, PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';

/** Every test card this suite sends, each with its own CVV so a stored CVV would be recognisable. */
const CARDS = [
  { cardNumber: '4111111111111111', cvv: '7391' },
  { cardNumber: '5500005555555559', cvv: '8264' },
  { cardNumber: '374251018720955', cvv: '5917' },
  { cardNumber: '4000000000009995', cvv: '6482' },
  { cardNumber: '4000002500003155', cvv: '3719' },
  { cardNumber: '4000000000003055', cvv: '2846' },
  { cardNumber: '4000003220000000', cvv: '9153' },
  { cardNumber: '6011111111111117', cvv: '4628' },
];
const ACH_ACCOUNT = '000987654321';

interface PaymentBody {
  status: string;
  token: { token: string };
  actionRequired: { sessionId: string };
}

async function dumpDatabase(url: string): Promise<string> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const tables = await db.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    const parts: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await db.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM "${name}" t`);
      parts.push(`${name}: ${rows.rows.map((r) => r.j).join('\n')}`);
    }
    return parts.join('\n');
  } finally {
    await db.end();
  }
}

/**
 * Runs every card flow (raw card, tokenize, token charge, SDK nonce, 3DS with tokenize, APM), then reads
 * every captured log line of every app and every row of every table of the payments and gateway databases:
 * no full PAN and no CVV may be there in clear.
 */
describe('no PAN or CVV in clear, anywhere', () => {
  let stack: TestStack;
  let client: PaymentsClient;

  beforeAll(async () => {
    [stack, client] = await TestStack.startWith(sandboxMerchant);
    const card = (i: number, extra: Record<string, unknown> = {}) => ({
      cardData: { ...CARDS[i], ...FUTURE, ...extra },
    });
    const ok = (r: { status: number; body: { status?: string } }) => {
      expect(r.status).toBe(200);
      return r.body as PaymentBody;
    };

    for (let i = 0; i < CARDS.length; i++) ok(await client.purchase({ card: card(i) }));
    const tokenized = ok(await client.purchase({ card: card(1, { tokenize: true }), shopper: { id: 's-1' } }));
    ok(await client.purchase({ card: { tokenData: { token: tokenized.token.token, cvv: '1357' } } }));
    ok(await client.authorize({ card: { tokenData: { token: tokenized.token.token } } }));

    const clientToken = (await stack.http('POST', '/v1/sdk/session', { key: client.key, body: {} })).body.clientToken;
    const nonce = async (i: number) =>
      (await stack.http('POST', '/v1/sdk/nonce', { key: clientToken, body: { cardData: { ...CARDS[i], ...FUTURE } } }))
        .body.nonce;
    ok(await client.purchase({ card: { nonceData: { nonce: await nonce(0) } } }));
    ok(
      await client.purchase({ card: { nonceData: { nonce: await nonce(2), tokenize: true } }, shopper: { id: 's-2' } }),
    );
    await nonce(7); // left unused: it stays sealed in its table until it expires

    for (const [i, outcome] of [
      [4, 'authenticated'],
      [5, 'authenticated'],
      [4, 'failed'],
    ] as const) {
      const p = ok(await client.purchase({ card: card(i, { tokenize: true }), shopper: { id: 's-3' } }));
      const sessionId = p.actionRequired.sessionId;
      await stack.http('POST', `/v1/sandbox/3ds/${sessionId}`, { key: client.key, body: { outcome } });
      ok(await stack.http('POST', '/v1/payment/resume', { body: { sessionId } }));
    }
    const pending3ds = ok(await client.purchase({ card: card(4, { tokenize: true }), shopper: { id: 's-4' } }));
    expect(pending3ds.status).toBe('pending_3ds');

    ok(
      await client.purchase({
        paymentMethod: 'ach',
        card: undefined,
        amount: { currency: 'USD', value: 700, exponent: 2 },
        apm: {
          accountHolderName: 'J Doe',
          accountNumber: ACH_ACCOUNT,
          routingNumber: '011000015',
          accountType: 'savings',
        },
      }),
    );
    // Let the outbox relay and every async log line land.
    await new Promise((resolve) => setTimeout(resolve, 500));
  });
  afterAll(() => stack.stop());

  const assertClean = (where: string, text: string) => {
    expect(text.length).toBeGreaterThan(0);
    for (const { cardNumber, cvv } of CARDS) {
      if (text.includes(cardNumber)) throw new Error(`${where} holds the PAN ${cardNumber} in clear`);
      if (text.includes(`"${cvv}"`)) throw new Error(`${where} holds the CVV ${cvv}`);
    }
    if (text.includes('"1357"')) throw new Error(`${where} holds the token charge's CVV`);
    if (/"cvv"\s*:/i.test(text)) throw new Error(`${where} has a cvv field`);
    if (text.includes(ACH_ACCOUNT)) throw new Error(`${where} holds the bank account number`);
  };

  it('no captured log line of any app holds a PAN or CVV', () => {
    expect([...stack.logs.keys()].sort()).toEqual(['gateway', 'payments', 'webhooks']);
    for (const [app, capture] of stack.logs) assertClean(`the ${app} log`, capture.text());
  });

  it('no row of any table of the payments database holds a PAN or CVV in clear', async () => {
    const dump = await dumpDatabase(stack.env.PAYMENTS_DATABASE_URL);
    for (const table of ['payments', 'stored_cards', 'card_nonces', 'payment_sessions', 'outbox', 'idempotency_keys']) {
      expect(dump).toContain(`${table}: {`);
    }
    assertClean('the payments database', dump);
    // The masked form is what is kept.
    expect(dump).toContain('411111****1111');
  });

  it('no row of any table of the gateway database holds a PAN or CVV', async () => {
    assertClean('the gateway database', await dumpDatabase(stack.env.GATEWAY_DATABASE_URL));
  });

  it('no row of any table of the webhooks database (events and deliveries included) holds a PAN or CVV', async () => {
    assertClean('the webhooks database', await dumpDatabase(stack.env.WEBHOOKS_DATABASE_URL));
  });
});
