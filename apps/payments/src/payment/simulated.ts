/**
 * The acquirer name of the built-in simulator (the `sandbox` connection's connector). Simulated behaviour (the
 * test cards, the account updater's card table, the hosted 3-D Secure and APM pages, the sandbox settle route)
 * acts only on payments and cards of a connection to it, never on a real provider's, checked where
 * it acts.
 */
export const SIMULATOR_ACQUIRER = 'sandbox';

/** Whether a payment or a stored card came through a simulator connection (a card stored before this: unknown, no). */
export const isSimulated = (o: { acquirer: string | null | undefined }): boolean => o.acquirer === SIMULATOR_ACQUIRER;
