#!/usr/bin/env node
/**
 * Live smoke test of the real connectors against the providers' own test environments (docs/connectors.md,
 * "Live smoke test"). It runs the conformance flows that need no shopper and no public webhook URL: purchase,
 * authorization + partial capture, partial refunds, cancel, decline mapping, merchant-initiated charge, status
 * sync (where the provider has one), and a retry with the same reference that must not charge twice.
 *
 *   ADYEN_TEST_API_KEY, ADYEN_TEST_MERCHANT_ACCOUNT (ADYEN_TEST_HMAC_KEY optional)   Adyen's TEST environment
 *   STRIPE_TEST_SECRET_KEY (sk_test_…)                                              Stripe's test mode
 *
 * Runs the compiled connectors (`npm run build` first; `npm run smoke:connectors` does). A provider without its
 * credentials is reported as skipped (CI has none and skips it); the exit code is 1 when a flow failed.
 * HTTPS_PROXY and NO_PROXY are honoured as in the payments service.
 */
'use strict';

const { randomUUID } = require('node:crypto');
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist', 'apps', 'payments', 'src', 'connector');
const { AdyenConnector } = require(path.join(DIST, 'adyen', 'adyen.connector'));
const { StripeConnector } = require(path.join(DIST, 'stripe', 'stripe.connector'));
const { ProviderAgents, proxySettingsOf } = require(path.join(DIST, 'provider-agent'));
const { ConnectorOutcomeUnknown } = require(path.join(DIST, 'provider-connector'));

const agents = new ProviderAgents(proxySettingsOf(process.env));
const agentFor = (url) => agents.agentFor(url);
const eur = (value) => ({ currency: 'EUR', value, exponent: 2 });
const reference = () => `smoke_${randomUUID().replace(/-/g, '')}`;

/** Each provider's test instruments: raw test card data for Adyen, Stripe's test PaymentMethods. */
const PROVIDERS = {
  adyen: {
    credentials: () =>
      process.env.ADYEN_TEST_API_KEY && process.env.ADYEN_TEST_MERCHANT_ACCOUNT
        ? {
            apiKey: process.env.ADYEN_TEST_API_KEY,
            merchantAccount: process.env.ADYEN_TEST_MERCHANT_ACCOUNT,
            ...(process.env.ADYEN_TEST_HMAC_KEY ? { hmacKey: process.env.ADYEN_TEST_HMAC_KEY } : {}),
          }
        : undefined,
    connector: () =>
      new AdyenConnector({ agentFor, timeoutMs: 30_000, defaultReturnUrl: 'https://example.com/return' }),
    // Adyen's test cards; a holder name of "REFUSED" makes its test environment refuse the payment.
    approved: { card: card('4111111145551142', 'Smoke Shopper') },
    declined: { card: card('4111111145551142', 'REFUSED') },
  },
  stripe: {
    credentials: () =>
      process.env.STRIPE_TEST_SECRET_KEY ? { apiKey: process.env.STRIPE_TEST_SECRET_KEY } : undefined,
    connector: () => new StripeConnector({ agentFor, timeoutMs: 30_000 }),
    approved: { providerPaymentMethodId: 'pm_card_visa' },
    declined: { providerPaymentMethodId: 'pm_card_chargeDeclinedInsufficientFunds' },
  },
};

function card(cardNumber, cardholderName) {
  return {
    source: 'cardData',
    cardNumber,
    expiryMonth: '03',
    expiryYear: '2030',
    cvv: '737',
    cardholderName,
    brand: 'visa',
    type: 'credit',
    tokenize: false,
  };
}

function authorization(instrument, over = {}) {
  return {
    paymentId: randomUUID(),
    at: new Date(),
    reference: reference(),
    amount: eur(1000),
    capture: true,
    paymentMethod: 'card',
    initiator: 'cardholder',
    returnUrl: 'https://example.com/return',
    shopperReference: 'smoke-shopper',
    ...instrument,
    ...over,
  };
}

function expect(condition, what) {
  if (!condition) throw new Error(what);
}

async function flows(name, provider, credentials) {
  const connector = provider.connector();
  const connection = { connectionCode: `${name}-smoke`, merchantCode: 'smoke', environment: 'sandbox', credentials };
  const modification = (approved, value) => ({
    paymentId: randomUUID(),
    reference: reference(),
    acquirerReference: approved.acquirerReference,
    amount: eur(value),
  });
  const accepted = (o, what) => expect(o.kind === 'succeeded' || o.kind === 'pending', `${what}: ${JSON.stringify(o)}`);
  const approve = async (over) => {
    const o = await connector.authorize(connection, authorization(provider.approved, over));
    expect(o.kind === 'approved', `expected approved, got ${JSON.stringify(o)}`);
    return o;
  };
  return {
    purchase: async () => approve(),
    'authorization + partial capture': async () => {
      const a = await approve({ capture: false });
      accepted(await connector.capture(connection, modification(a, 600)), 'capture 600');
      if (connector.capabilities.multipleCaptures) {
        accepted(await connector.capture(connection, modification(a, 400)), 'capture 400');
      }
    },
    'partial refunds': async () => {
      const a = await approve();
      accepted(await connector.refund(connection, modification(a, 300)), 'refund 300');
      accepted(await connector.refund(connection, modification(a, 700)), 'refund 700');
    },
    cancel: async () => {
      const a = await approve({ capture: false });
      accepted(await connector.cancel(connection, modification(a, 1000)), 'cancel');
    },
    'decline mapping': async () => {
      const o = await connector.authorize(connection, authorization(provider.declined));
      expect(o.kind === 'declined' && o.refusalCode && o.refusalCode.recoveryAction, `got ${JSON.stringify(o)}`);
    },
    'merchant-initiated charge with the network transaction id': async () => {
      const first = await approve();
      const mit = await connector.authorize(
        connection,
        authorization(provider.approved, { initiator: 'merchant', networkTransactionId: first.networkTransactionId }),
      );
      expect(mit.kind === 'approved', `got ${JSON.stringify(mit)}`);
    },
    'status sync': async () => {
      const r = authorization(provider.approved);
      const a = await connector.authorize(connection, r);
      const synced = await connector.sync(connection, {
        acquirerReference: a.acquirerReference,
        reference: r.reference,
      });
      if (connector.capabilities.statusSync) {
        expect(synced && ['approved', 'captured'].includes(synced.kind), `sync answered ${JSON.stringify(synced)}`);
      } else expect(synced === undefined, 'a connector without status sync answered one');
    },
    'a retry with the same reference is the same payment': async () => {
      const r = authorization(provider.approved);
      const first = await connector.authorize(connection, r);
      const again = await connector.authorize(connection, r);
      expect(first.acquirerReference === again.acquirerReference, 'the retry made another payment');
    },
  };
}

async function main() {
  let failed = 0;
  for (const [name, provider] of Object.entries(PROVIDERS)) {
    const credentials = provider.credentials();
    if (!credentials) {
      process.stdout.write(`${name}: skipped (no test credentials in the environment)\n`);
      continue;
    }
    for (const [flow, run] of Object.entries(await flows(name, provider, credentials))) {
      try {
        await run();
        process.stdout.write(`${name}: ${flow}: ok\n`);
      } catch (error) {
        failed++;
        const unknown = error instanceof ConnectorOutcomeUnknown ? ' (outcome unknown)' : '';
        process.stdout.write(`${name}: ${flow}: FAILED${unknown}: ${error.message}\n`);
      }
    }
  }
  agents.destroy();
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
