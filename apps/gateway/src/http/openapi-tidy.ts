import type { OpenAPIObject, OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

type Method = (typeof HTTP_METHODS)[number];
type Operation = OperationObject & { 'x-internal'?: boolean };

/** Controllers whose routes belong to another resource's group of operation ids. */
const GROUP_OF_CONTROLLER: Record<string, string> = {
  PaymentOperations: 'payments',
  Resume: 'payments',
  Dunning: 'subscriptions',
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Routes for operators, hosted pages and browsers (the dashboard's too): documented, but not merchant-server API. The sandbox tools
 * are merchant-server API (a merchant's tests call them with its sandbox key), so the client has them.
 */
const INTERNAL_TAGS = new Set(['admin', 'hosted pages', 'checkout', 'dashboard']);

/**
 * A readable, stable operation id: the resource group and the handler's name, e.g. `paymentsPurchase`,
 * `plansList`, `webhookEndpointsCreate`; a handler named like its group is the id alone (`ping`).
 */
export function operationIdOf(controllerKey: string, methodKey: string): string {
  const stem = controllerKey.replace(/Controller$/, '');
  const group = GROUP_OF_CONTROLLER[stem] ?? stem.charAt(0).toLowerCase() + stem.slice(1);
  if (group.toLowerCase() === methodKey.toLowerCase()) return methodKey;
  return group + methodKey.charAt(0).toUpperCase() + methodKey.slice(1);
}

export function operationsOf(document: OpenAPIObject): { path: string; method: Method; op: Operation }[] {
  const out: { path: string; method: Method; op: Operation }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op) out.push({ path, method, op });
    }
  }
  return out;
}

/** What a merchant server reads from a route: JSON, or a CSV export. */
const DATA_TYPES = ['application/json', 'text/csv'];

function answersData(op: OperationObject): boolean {
  return Object.entries(op.responses).some(
    ([status, r]) =>
      status.startsWith('2') &&
      !!r &&
      'content' in r &&
      Object.keys(r.content ?? {}).some((type) => DATA_TYPES.includes(type)),
  );
}

/**
 * Marks the routes a merchant server does not call with `x-internal: true`, and states "no credential" on the
 * keyless routes (their session id, link or page is the credential) with an empty `security`.
 */
export function markInternalOperations(document: OpenAPIObject): void {
  for (const { op } of operationsOf(document)) {
    if ((op.tags ?? []).some((t) => INTERNAL_TAGS.has(t)) || !answersData(op)) op['x-internal'] = true;
    if (!op.security) op.security = [];
  }
}

/** Two routes with one operation id would make one of them unreachable by name in a generated client. */
export function requireUniqueOperationIds(document: OpenAPIObject): void {
  const seen = new Map<string, string>();
  for (const { path, method, op } of operationsOf(document)) {
    const id = op.operationId ?? '';
    const where = `${method.toUpperCase()} ${path}`;
    if (seen.has(id)) throw new Error(`OpenAPI operationId ${id} is used by ${seen.get(id)} and ${where}`);
    seen.set(id, where);
  }
}

/** The merchant document: the same, without the internal routes and the tags only they used. */
export function withoutInternalOperations(document: OpenAPIObject): OpenAPIObject {
  return withoutOperations(document, (op) => !!op['x-internal']);
}

/** A copy of the document without the operations `drop` picks, and the paths left with none. */
export function withoutOperations(document: OpenAPIObject, drop: (op: Operation) => boolean): OpenAPIObject {
  const copy = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
  for (const { path, method, op } of operationsOf(copy)) {
    if (drop(op)) delete copy.paths[path][method];
  }
  for (const [path, item] of Object.entries(copy.paths)) {
    if (!HTTP_METHODS.some((m) => item[m])) delete copy.paths[path];
  }
  return copy;
}
