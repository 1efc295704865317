import { randomUUID } from 'node:crypto';
import { unwrap } from '../../typescript/src';
import { CliEnv, UsageError } from './config';

/** Sandbox test cards: any valid card is approved; this one is always declined with "Do not honor". */
const APPROVED_CARD = '4111111111111111';
const DECLINED_CARD = '4000000000000002';

const card = (cardNumber: string) => ({
  cardData: {
    cardNumber,
    expiryMonth: '12',
    expiryYear: String(new Date().getUTCFullYear() + 3),
    cvv: '123',
    cardholderName: 'Test Cardholder',
  },
});
const amount = { currency: 'USD' as const, value: 1000, exponent: 2 };
const orderCode = (): string => `cli-${randomUUID().slice(0, 8)}`;

type Step = (env: CliEnv) => Promise<string[]>;

const scope = (env: CliEnv) => (env.merchantCode ? { merchantCode: env.merchantCode } : {});

async function charge(env: CliEnv, cardNumber = APPROVED_CARD, route: 'purchase' | 'authorization' = 'purchase') {
  return unwrap(
    env.client.POST(`/v1/payment/${route}`, {
      body: { ...scope(env), orderCode: orderCode(), amount, card: card(cardNumber) },
    }),
  );
}

async function subscription(env: CliEnv) {
  const plan = await unwrap(
    env.client.POST('/v1/subscription/plan', {
      body: { ...scope(env), name: 'CLI trigger plan', interval: 'month', amount: 1000, currency: 'USD' },
    }),
  );
  const sub = await unwrap(
    env.client.POST('/v1/subscription', {
      body: { ...scope(env), planId: plan.id, customerEmail: 'cli-trigger@example.com', card: card(APPROVED_CARD) },
    }),
  );
  return { plan, sub };
}

/** Each event type and the sandbox objects that produce it; the lines say what was created. */
export const TRIGGERS: Record<string, { does: string; run: Step }> = {
  'payment.captured': {
    does: 'a purchase with an approved test card',
    run: async (env) => [`payment ${(await charge(env)).id} captured`],
  },
  'payment.authorized': {
    does: 'an authorization with an approved test card',
    run: async (env) => [`payment ${(await charge(env, APPROVED_CARD, 'authorization')).id} authorized`],
  },
  'payment.cancelled': {
    does: 'an authorization, then its cancellation',
    run: async (env) => {
      const p = await charge(env, APPROVED_CARD, 'authorization');
      await unwrap(env.client.POST('/v1/payment/{id}/cancel', { params: { path: { id: p.id } }, body: scope(env) }));
      return [`payment ${p.id} authorized`, `payment ${p.id} cancelled`];
    },
  },
  'payment.refunded': {
    does: 'a purchase, then its full refund',
    run: async (env) => {
      const p = await charge(env);
      await unwrap(
        env.client.POST('/v1/payment/{id}/refund', { params: { path: { id: p.id } }, body: { ...scope(env), amount } }),
      );
      return [`payment ${p.id} captured`, `payment ${p.id} refunded`];
    },
  },
  'payment.refused': {
    does: `a purchase with the declined test card ${DECLINED_CARD}`,
    run: async (env) => {
      const p = await charge(env, DECLINED_CARD);
      return [`payment ${p.id} ${p.status}`];
    },
  },
  'subscription.created': {
    does: 'a plan, and a subscription to it with an approved test card',
    run: async (env) => {
      const { plan, sub } = await subscription(env);
      return [`plan ${plan.id} created`, `subscription ${sub.id} ${sub.status}`];
    },
  },
  'invoice.paid': {
    does: 'a plan, and a subscription to it whose first invoice is paid at once',
    run: async (env) => TRIGGERS['subscription.created'].run(env),
  },
  'subscription.cancelled': {
    does: 'a plan, a subscription to it, then its cancellation',
    run: async (env) => {
      const { plan, sub } = await subscription(env);
      await unwrap(
        env.client.POST('/v1/subscription/{id}/cancel', { params: { path: { id: sub.id } }, body: scope(env) }),
      );
      return [`plan ${plan.id} created`, `subscription ${sub.id} created`, `subscription ${sub.id} cancelled`];
    },
  },
};

/**
 * Creates the objects that produce `type`. Only with a sandbox key: in production the same calls would charge
 * real cards.
 */
export async function trigger(env: CliEnv, type: string | undefined): Promise<string[]> {
  if (!type) throw new UsageError('trigger needs an event type');
  const t = TRIGGERS[type];
  if (!t) throw new UsageError(`No trigger for ${type}; one of: ${Object.keys(TRIGGERS).join(', ')}`);
  if (!env.apiKey.startsWith('prv_sandbox_')) {
    throw new UsageError('trigger creates test objects and runs only with a sandbox key (prv_sandbox_…)');
  }
  return t.run(env);
}
