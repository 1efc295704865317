import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorCode, httpStatusOf } from '@app/contracts';
import { ERROR_NOTES, ErrorEntry, errorExample, ErrorNotes, errorNotesOf } from './api-errors';
import { operationsOf } from './openapi-tidy';

const ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const FAILED_AUTHENTICATIONS = 'or too many failed authentications from this address';

/** The codes a credential check answers, by the security scheme the route takes. */
const SCHEME_ERRORS: Record<string, ErrorEntry[]> = {
  privateKey: [
    'AUTH_MISSING',
    'AUTH_INVALID',
    {
      AUTH_INSUFFICIENT_SCOPE: 'a public key or a client token on a server route',
      RATE_LIMITED: `more than RATE_LIMIT_PER_SECOND requests for this key (per gateway replica), ${FAILED_AUTHENTICATIONS}`,
    },
  ],
  adminToken: [
    'AUTH_MISSING',
    {
      AUTH_INVALID: 'not the ADMIN_TOKEN',
      AUTH_INSUFFICIENT_SCOPE: 'the admin API is off: ADMIN_TOKEN is not set',
      RATE_LIMITED: `too many failed authentications from this address`,
    },
  ],
  dashboardSession: [
    { AUTH_MISSING: 'no dashboard session cookie: sign in first' },
    {
      AUTH_INVALID: 'the session has ended: signed out, expired or the user was removed',
      RATE_LIMITED: 'too many failed authentications from this address',
    },
  ],
  clientToken: [
    'AUTH_MISSING',
    {
      AUTH_INVALID: 'a bad or expired client token, or its minting key was revoked',
      AUTH_INSUFFICIENT_SCOPE: 'an API key instead of a client token, or a token of another payment link',
      RATE_LIMITED: `too many requests for the key that minted the token, ${FAILED_AUTHENTICATIONS}`,
    },
  ],
};

const integer = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE_LIMIT_HEADERS = {
  'Retry-After': integer('Seconds to wait before trying again'),
  'RateLimit-Limit': integer('The limit of the window that refused the request'),
  'RateLimit-Remaining': integer('What is left of that window: 0'),
  'RateLimit-Reset': integer('Seconds until the window lets requests through again'),
};

/** The codes a route answers by its shape: its credential, whether it reads a body or a query, and faults. */
function codesOfShape(method: string, op: OperationObject): ErrorEntry[] {
  const entries: ErrorEntry[] = [];
  for (const requirement of op.security ?? []) {
    for (const scheme of Object.keys(requirement)) entries.push(...(SCHEME_ERRORS[scheme] ?? []));
  }
  const bySession = (op.security ?? []).some((requirement) => 'dashboardSession' in requirement);
  if (bySession && BODY_METHODS.has(method)) {
    entries.push({
      CSRF_INVALID: 'a change without the session’s `X-CSRF-Token` header, or from a page of another site (`Origin`)',
    });
  }
  const readsQuery = (op.parameters ?? []).some((p) => 'in' in p && p.in === 'query');
  if (BODY_METHODS.has(method)) entries.push('VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  else if (readsQuery)
    entries.push({ VALIDATION_FAILED: 'a query parameter is malformed or out of range; `param` names it' });
  entries.push('INTERNAL_ERROR');
  return entries;
}

/** The codes a route documented itself (@ApiErrors): one named example per code of its error answers. */
function declaredCodes(where: string, op: OperationObject, problem: (text: string) => void): ErrorNotes {
  const notes: ErrorNotes = {};
  for (const [status, response] of Object.entries(op.responses)) {
    if (Number(status) < 400 || !response || !('description' in response)) continue;
    const media = Object.values(response.content ?? {});
    // @ApiErrors' examples, under whatever media types the route produces (the envelope is always JSON).
    const examples = media.find((m) => m.examples)?.examples;
    if (!examples && media.length && !response.content?.['application/json']) continue; // a page's own answer
    if (!examples || !Object.keys(examples).length) {
      problem(`OpenAPI ${where}: its ${status} answer names no error code; document it with @ApiErrors`);
      continue;
    }
    for (const [code, example] of Object.entries(examples)) {
      if (httpStatusOf(code) !== Number(status)) {
        problem(`OpenAPI ${where}: ${code} is documented under ${status}, but answers ${httpStatusOf(code)}`);
        continue;
      }
      notes[code as ErrorCode] = (example as { summary?: string }).summary;
    }
  }
  return notes;
}

/** The answers' examples, one per code, shared through `components.examples` (named by the code). */
type SharedExamples = Record<string, { summary: string; value: unknown }>;

function errorResponse(notes: ErrorNotes, shared: SharedExamples): ResponseObject {
  const codes = Object.keys(notes) as ErrorCode[];
  const examples: Record<string, { $ref: string }> = {};
  for (const code of codes) {
    shared[code] ??= { summary: `${code}: ${ERROR_NOTES[code]}`, value: errorExample(code) };
    examples[code] = { $ref: `#/components/examples/${code}` };
  }
  const response: ResponseObject = {
    description: codes.map((code) => `\`${code}\`: ${notes[code]}`).join('\n\n'),
    content: { 'application/json': { schema: { $ref: ENVELOPE_REF }, examples } },
  };
  if (codes.includes('RATE_LIMITED')) response.headers = RATE_LIMIT_HEADERS;
  if (codes.includes('IDEMPOTENCY_IN_PROGRESS')) response.headers = { 'Retry-After': integer('Always 1') };
  return response;
}

/**
 * Every operation's error answers, complete: the codes the route declared with @ApiErrors plus the codes of its
 * shape (credential, body or query, 500), their notes added up; one response per status with the error
 * envelope, a description naming each code with what it means on this route, and one example per code
 * (shared in `components.examples`). An error answer documented without its codes, or a code under another
 * status, throws; with `problems` given they are listed there instead (the served document, which must not stop
 * the gateway; the committed one is emitted strictly, so `node scripts/openapi.js` and its test name them).
 */
export function describeErrors(document: OpenAPIObject, problems?: string[]): OpenAPIObject {
  const problem = (text: string): void => {
    if (!problems) throw new Error(text);
    problems.push(text);
  };
  const shared: SharedExamples = {};
  for (const { path, method, op } of operationsOf(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    const notes = errorNotesOf([errorNotesOf(codesOfShape(method, op)), declaredCodes(where, op, problem)]);
    const byStatus = new Map<number, ErrorNotes>();
    for (const [code, note] of Object.entries(notes) as [ErrorCode, string][]) {
      const status = httpStatusOf(code);
      byStatus.set(status, { ...byStatus.get(status), [code]: note });
    }
    for (const status of [...byStatus.keys()].sort()) {
      op.responses[String(status)] = errorResponse(byStatus.get(status)!, shared);
    }
    op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
  }
  const sorted = Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
  document.components = { ...document.components, examples: { ...document.components?.examples, ...sorted } };
  return document;
}
