import {
  CARD,
  CARD_VIEW,
  EXAMPLE_TIME,
  NamedExamples,
  NONCE,
  PAYMENT,
  SESSION,
  TOKEN,
  usd,
} from './openapi-example-values';

/** Named examples of the main operations (openapi-examples.ts): the ways to call them and what they answer. */

/** Card 4000000000009995's refusal. */
const DECLINED = {
  reasonCode: '51',
  reason: 'Insufficient funds',
  originalReasonCode: '51',
  originalReason: 'INSUFFICIENT_FUNDS',
  recoveryAction: 'switch_method',
};
const PENDING_DELIVERY = {
  status: 'pending',
  deliveryStatus: 'pending',
  resendable: true,
  attempt: 1,
  responseStatus: null,
  responseExcerpt: null,
  durationMs: null,
  error: null,
  attemptedAt: null,
  nextAttemptAt: EXAMPLE_TIME,
};

const purchase = (card: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  merchantCode: 'acme',
  orderCode: 'order-1001',
  amount: usd(1999),
  card,
  shopper: { email: 'ada@example.com', name: 'Ada Lovelace' },
  metadata: { cartId: 'cart-7731' },
  ...extra,
});

const PAYMENT_ANSWERS: NamedExamples = {
  captured: { summary: 'Approved and captured', value: {} },
  declined: {
    summary: 'Declined (a 200, not an error): card 4000000000009995',
    value: {
      status: 'declined',
      autorizationCode: undefined,
      amountCaptured: usd(0),
      card: { ...CARD_VIEW, cardData: { ...CARD_VIEW.cardData, cardNumber: '400000****9995' } },
      refusalCode: DECLINED,
    },
  },
  challenge: {
    summary: '3DS challenge required: card 4000002500003155',
    value: {
      status: 'pending_3ds',
      autorizationCode: undefined,
      amountCaptured: usd(0),
      card: { ...CARD_VIEW, cardData: { ...CARD_VIEW.cardData, cardNumber: '400000****3155' } },
      actionRequired: {
        type: 'threeds_challenge',
        url: `http://localhost:3000/v1/3ds/challenge/${SESSION}`,
        sessionId: SESSION,
        expiresAt: '2026-11-26T10:15:00.000Z',
      },
    },
  },
};

const PAYMENT_REQUESTS: NamedExamples = {
  card: { summary: 'A card (sandbox test card, approved)', value: purchase({ cardData: CARD }) },
  nonce: {
    summary: 'A nonce from the browser SDK (the card never touches your server)',
    value: purchase({ nonceData: { nonce: NONCE, cardholderName: 'Ada Lovelace' } }),
  },
  token: {
    summary: 'A card token kept by an earlier payment (`tokenize: true`)',
    value: purchase({ tokenData: { token: TOKEN } }),
  },
  pix: {
    summary: 'Pix (an APM answered with a QR code)',
    value: {
      merchantCode: 'acme',
      orderCode: 'order-1002',
      amount: { currency: 'BRL', value: 4990, exponent: 2 },
      paymentMethod: 'pix',
      apm: { payerDocument: '12345678909', expiresInSeconds: 3600 },
    },
  },
};

/** An operation's own named examples: whole request bodies, and overlays on the schema's answer example. */
export const OPERATION_EXAMPLES: Record<
  string,
  { request?: NamedExamples; responses?: Record<string, NamedExamples> }
> = {
  paymentsPurchase: { request: PAYMENT_REQUESTS, responses: { '200': PAYMENT_ANSWERS } },
  paymentsAuthorization: {
    request: {
      card: { summary: 'Hold 19.99 USD on a card', value: purchase({ cardData: CARD }) },
      verification: {
        summary: 'Verify a card (amount 0) and keep a token for later charges',
        value: purchase({ cardData: { ...CARD, tokenize: true } }, { amount: usd(0), orderCode: 'verify-1001' }),
      },
    },
    responses: {
      '200': {
        authorized: { summary: 'Authorized: funds held', value: { status: 'authorized', amountCaptured: usd(0) } },
      },
    },
  },
  paymentsRefund: {
    responses: { '200': { refunded: { summary: 'Partly refunded', value: { status: 'refunded', amount: usd(500) } } } },
  },
  paymentsCancel: {
    responses: { '200': { cancelled: { summary: 'The hold is released', value: { status: 'cancelled' } } } },
  },
  paymentsCancelOrRefund: {
    responses: { '200': { refunded: { summary: 'A captured payment, refunded', value: { status: 'refunded' } } } },
  },
  paymentsResume: {
    responses: { '200': { captured: { summary: 'The challenge passed: captured', value: {} } } },
  },
  subscriptionsCreate: {
    request: {
      card: {
        summary: 'CIT mode: the first month is charged now on a sandbox test card',
        value: { merchantCode: 'acme', planId: 7, customerEmail: 'ada@example.com', card: { cardData: CARD } },
      },
      nonce: {
        summary: 'CIT mode with a browser SDK nonce',
        value: {
          merchantCode: 'acme',
          planId: 7,
          customerEmail: 'ada@example.com',
          card: { nonceData: { nonce: NONCE } },
        },
      },
      token: {
        summary: 'Record mode: a card token and the payment that already took the first charge',
        value: {
          merchantCode: 'acme',
          planId: 7,
          customerEmail: 'ada@example.com',
          card: { tokenData: { token: TOKEN } },
          firstPaymentId: PAYMENT,
        },
      },
    },
  },
  subscriptionsCancel: {
    responses: {
      '200': { cancelled: { summary: 'Cancelled', value: { status: 'cancelled', cancelledAt: EXAMPLE_TIME } } },
    },
  },
  subscriptionsPause: {
    responses: { '200': { paused: { summary: 'Paused', value: { status: 'paused', pausedAt: EXAMPLE_TIME } } } },
  },
  webhookEndpointsResend: {
    responses: {
      '202': {
        pending: {
          summary: 'The try to send',
          value: { ...PENDING_DELIVERY, object: { type: 'payment', id: '0193a5d0-1a2b-7c3d-8e4f-5a6b7c8d9e0f' } },
        },
      },
    },
  },
  webhookEndpointsTest: {
    responses: {
      '202': { pending: { summary: 'The ping event’s first try', value: { ...PENDING_DELIVERY, eventType: 'ping' } } },
    },
  },
  usageRecord: {
    responses: {
      '201': { recorded: { summary: 'A new event', value: {} } },
      '200': { replayed: { summary: 'A retry with the same key: the recorded event', value: { duplicate: true } } },
    },
  },
  sandboxClockAdvance: {
    request: {
      by: { summary: 'Move one month ahead', value: { by: 'P1M' } },
      to: { summary: 'Move to a point in time', value: { to: '2026-12-26T10:00:00.000Z' } },
    },
  },
};
