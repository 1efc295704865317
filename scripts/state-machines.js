#!/usr/bin/env node
// Writes docs/state-machines.md from the transition tables: every machine as a Mermaid state diagram.
// `node scripts/ensure-build.js && node scripts/state-machines.js` (reads the compiled tables in dist/).
// test/deploy/state-machines.spec.ts renders the same document from the sources and fails when it differs.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DOCUMENT = path.join(ROOT, 'docs/state-machines.md');

/** Each machine: the module and export of its table, and where the facts that pick its moves are decided. */
const MACHINES = [
  {
    table: 'apps/payments/src/payment/payment-state',
    name: 'PAYMENT_MACHINE',
    decided:
      "the acquirer's answer in `apps/payments/src/payment/payment-outcome.ts`; capture, refund, cancel and hold " +
      'expiry in `apps/payments/src/payment/payment-money.ts`',
  },
  {
    table: 'apps/payment-links/src/link/payment-link-state',
    name: 'LINK_MACHINE',
    decided: 'a confirmed payment in `payTrigger`, expiry in `isDue`, both next to the table',
  },
  {
    table: 'apps/payment-links/src/checkout/link-use-state',
    name: 'LINK_USE_MACHINE',
    decided: "the payment's outcome in `apps/payment-links/src/checkout/link-use.ledger.ts` (`settle`)",
  },
  {
    table: 'apps/payments/src/threeds/session-state',
    name: 'THREEDS_SESSION_MACHINE',
    decided:
      "the cardholder's answer in `apps/payments/src/threeds/threeds.service.ts`, the resume in `session-use.ts`, " +
      'expiry in `threeds-expiry.service.ts`, a resume that never reached the acquirer in `challenge-record.ts`',
  },
  {
    table: 'apps/payments/src/threeds/session-state',
    name: 'APM_SESSION_MACHINE',
    decided: "the payment's settlement in `apps/payments/src/threeds/settle.use-case.ts`",
  },
  {
    table: 'apps/billing/src/subscription/subscription-state',
    name: 'SUBSCRIPTION_MACHINE',
    decided:
      'every move is decided by the subscription policy, `decide()` in ' +
      '`apps/billing/src/subscription/subscription-policy.ts`: creation (trialing, active or pending), trial ' +
      'start and end, completion, a renewal or retry paid or declined, dunning (its retry schedule in ' +
      '`apps/billing/src/subscription/dunning-policy.ts`), a change of plan now or at the next renewal, a new ' +
      "payment method and the merchant's cancel, pause and resume",
  },
  {
    table: 'apps/billing/src/invoice/invoice-state',
    name: 'INVOICE_MACHINE',
    decided:
      'paid or failed as the subscription policy (`apps/billing/src/subscription/subscription-policy.ts`) ' +
      'decides for its subscription; voided when the policy cancels the subscription',
  },
  {
    table: 'apps/webhooks/src/webhooks/delivery-state',
    name: 'ATTEMPT_MACHINE',
    decided: "a try's outcome in `apps/webhooks/src/webhooks/delivery-policy.ts`",
  },
  {
    table: 'apps/webhooks/src/webhooks/delivery-state',
    name: 'DELIVERY_MACHINE',
    decided: "a try's outcome in `apps/webhooks/src/webhooks/delivery-policy.ts`",
  },
];

const HEADER = `# State machines

Generated from the transition tables by \`scripts/state-machines.js\`; do not edit by hand. After changing a
table, run \`node scripts/ensure-build.js && node scripts/state-machines.js\`; \`test/deploy/state-machines.spec.ts\`
fails while this file and the tables disagree.

Every aggregate's status changes only through its table (\`libs/state-machine\`). An arrow is labelled with
the table's event, then the domain events the move emits; "(no change)" marks an event that is accepted in
that state and changes nothing. Any move not drawn is refused with 409 \`INVALID_STATE\`. \`new\` is a record
being created, before its first status; a payment is stored \`reserved\` while its acquirer call is in flight
(no read answers it).
`;

const title = (name) => name.charAt(0).toUpperCase() + name.slice(1);

/** The document, from `load(module)`: the table modules and `libs/state-machine` (compiled or source). */
function render(load) {
  const { toMermaid } = load('libs/state-machine/src');
  const sections = MACHINES.map(({ table, name, decided }) => {
    const machine = load(table)[name];
    return [
      `## ${title(machine.name)}`,
      '',
      `Table: \`${name}\` in \`${table}.ts\`. Which fact makes which move: ${decided}.`,
      '',
      '```mermaid',
      toMermaid(machine),
      '```',
      '',
    ].join('\n');
  });
  return [HEADER, ...sections].join('\n');
}

module.exports = { DOCUMENT, MACHINES, render };

if (require.main === module) {
  const dist = path.join(ROOT, 'dist');
  fs.writeFileSync(
    DOCUMENT,
    render((mod) => require(path.join(dist, mod))),
  );
  console.log(`Wrote ${path.relative(ROOT, DOCUMENT)}`);
}
