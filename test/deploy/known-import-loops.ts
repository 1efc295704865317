/**
 * Loops between sibling folders that exist today in the payments service, as steps `from-folder → to-folder`
 * (test/deploy/import-layers.spec.ts). Every other upward import fails the test, and a step that no longer closes a
 * loop must leave this list: it only shrinks. The gateway, billing and the libraries have none (the test refuses to
 * list theirs). Untie a loop by moving what both folders need below them, or by a port the lower folder declares and
 * the upper one provides (as the gateway's auth/credential-resolver.ts).
 */
export const KNOWN_LOOPS: readonly string[] = [
  'apps/payments/src/connector → apps/payments/src/routing',
  'apps/payments/src/payment → apps/payments/src/connector',
  'apps/payments/src/routing → apps/payments/src/connector',
  'apps/payments/src/routing → apps/payments/src/payment',
];
