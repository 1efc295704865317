// The table lives with the contracts, so the API reference and docs/testing.md are derived from it.
export { SANDBOX_CARDS, SANDBOX_DECLINES, SANDBOX_THREE_DS, sandboxBehaviour } from '@app/contracts';
export type { SandboxBehaviour, SandboxFailingOperation } from '@app/contracts';
