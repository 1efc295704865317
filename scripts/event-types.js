#!/usr/bin/env node
/**
 * Generates clients/typescript/src/generated/events.ts from libs/contracts: the event catalogue as a
 * discriminated union with each type's `data` (the OpenAPI schema named by EventDataClasses), and the error
 * codes as a literal union. `node scripts/event-types.js` writes it; `--check` writes nothing and exits 1 when
 * the committed file differs (test/deploy/event-types.spec.ts runs it). Run it after changing the catalogue,
 * an event's data class or the error codes; run `node scripts/openapi.js` first when a data class is new.
 */
'use strict';

require('../test/support/ts-register');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const OUTPUT = path.join(CLIENT, 'src/generated/events.ts');

/** The provider's names that webhook deliveries and `GET /v1/events` add to the data of every payment event. */
const PROVIDER_PAYMENT_TYPE = '{ payment_code: string; order_code: string; payment_id: string }';

const quote = (s) => `'${s}'`;

function generate() {
  const { ALL_EVENT_TYPES, ErrorCodes, EventDataClasses, WEBHOOK_PING_EVENT } = require('../libs/contracts/src');
  const schemas = JSON.parse(fs.readFileSync(path.join(CLIENT, 'openapi.json'), 'utf8')).components.schemas;
  const dataOf = (type) => {
    const name = EventDataClasses[type]?.name;
    if (!name) throw new Error(`event type ${type} has no data class in EventDataClasses`);
    if (!schemas[name])
      throw new Error(`schema ${name} (data of ${type}) is not in openapi.json; run scripts/openapi.js`);
    const schema = `Schemas[${quote(name)}]`;
    return type.startsWith('payment.') ? `${schema} & ProviderPaymentNames` : schema;
  };
  const list = (values) => values.map((v) => `  ${quote(v)},`).join('\n');
  return `// Generated from libs/contracts by scripts/event-types.js; do not edit. Regenerate: node scripts/event-types.js
import type { components } from './api';

type Schemas = components['schemas'];

/** Every event type of the catalogue; the NATS subject of an event is its type. */
export const EVENT_TYPES = [
${list(ALL_EVENT_TYPES)}
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The provider's names of a payment's codes and id, which its plugins read, in the data of every payment event. */
export type ProviderPaymentNames = ${PROVIDER_PAYMENT_TYPE};

/** The \`data\` of each event type: the object after the change. */
export interface EventDataMap {
${ALL_EVENT_TYPES.map((t) => `  ${quote(t)}: ${dataOf(t)};`).join('\n')}
}

/**
 * An event as webhook deliveries and \`GET /v1/events\` carry it; \`type\` discriminates:
 * \`if (e.type === 'subscription.cancelled') e.data.cancelledAt\`.
 */
export type Event<T extends EventType = EventType> = {
  [K in T]: {
    id: string;
    type: K;
    createdAt: string;
    environment: 'production' | 'sandbox';
    merchantCode: string;
    data: EventDataMap[K];
    /** The provider's name of \`type\`. */
    event: K;
    /** The provider's name of \`createdAt\`. */
    created_at: string;
  };
}[T];

/** The delivery \`POST /v1/webhook-endpoint/{id}/test\` sends; it is no event of the catalogue. */
export type PingEvent = Omit<Event, 'type' | 'event' | 'data'> & {
  type: ${quote(WEBHOOK_PING_EVENT)};
  event: ${quote(WEBHOOK_PING_EVENT)};
  data: { endpointId: string; message: string };
};

/** What a webhook receiver gets. */
export type WebhookEvent = Event | PingEvent;

/** Every error code of the API; a newer server may answer one not listed yet. */
export const ERROR_CODES = [
${list(Object.keys(ErrorCodes))}
] as const;

export type KnownErrorCode = (typeof ERROR_CODES)[number];

/** An error code: the known ones complete and are checked, and an unknown future one still type-checks. */
export type ErrorCode = KnownErrorCode | (string & {});
`;
}

function main() {
  const text = generate();
  const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : undefined;
  if (current === text) return 0;
  const name = path.relative(ROOT, OUTPUT);
  if (process.argv.includes('--check')) {
    process.stderr.write(`${name} differs from libs/contracts; run: node scripts/event-types.js\n`);
    return 1;
  }
  fs.writeFileSync(OUTPUT, text);
  process.stderr.write(`wrote ${name}\n`);
  return 0;
}

try {
  process.exit(main());
} catch (e) {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
}
