import type { OpenAPIObject } from '@nestjs/swagger';

type Operation = {
  security?: unknown[];
  responses?: Record<string, unknown>;
};

const ENVELOPE = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const integer = (description: string) => ({ description, schema: { type: 'integer' } });

const LIMIT_RESPONSES = {
  '413': {
    description: 'PAYLOAD_TOO_LARGE: the body is larger than 1 MiB',
    content: ENVELOPE,
  },
  '415': {
    description: 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json',
    content: ENVELOPE,
  },
  '429': {
    description:
      'RATE_LIMITED: too many requests for this key (per gateway replica), too many failed authentications ' +
      'from this address, or (a payment link’s checkout) too many declined payments. Wait Retry-After seconds.',
    headers: {
      'Retry-After': integer('Seconds to wait before trying again'),
      'RateLimit-Limit': integer('The limit of the window that refused the request'),
      'RateLimit-Remaining': integer('What is left of that window: 0'),
      'RateLimit-Reset': integer('Seconds until the window lets requests through again'),
    },
    content: ENVELOPE,
  },
} as const;

/**
 * Adds the limit answers to every operation that can give them: 413 and 415 wherever a body is read,
 * 429 wherever a credential is checked (the per-key limit, failed authentications, the checkout's
 * card-testing defence). A route's own description of one of them is kept.
 */
export function describeLimits(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const operation = value as Operation;
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const codes = [
        ...(BODY_METHODS.has(method) ? (['413', '415'] as const) : []),
        ...(operation.security?.length ? (['429'] as const) : []),
      ];
      for (const code of codes) {
        const own = operation.responses[code] as { description?: string } | undefined;
        operation.responses[code] = own ? { ...LIMIT_RESPONSES[code], ...own } : LIMIT_RESPONSES[code];
      }
    }
  }
  return document;
}
