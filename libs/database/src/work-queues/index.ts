/**
 * Work queues and sweeps: the shapes of background work on tables. A queue's claim runs in index order with
 * `FOR UPDATE SKIP LOCKED` (`runQueueClaim`), bookkeeping may commit without waiting for the WAL flush
 * (`runAsyncCommit`), an expiry sweep claims and handles due rows in batches until none is left
 * (`sweepInBatches`), and a sandbox clock advance runs the due work of several kinds in time order (`DueWork`,
 * `runDueInTimeOrder`), one advance per merchant at a time across replicas (`whileAdvancing`). The loops that call them live in the apps and in `libs/platform/src/loops`.
 */
export * from './advance-lock';
export * from './due-work';
export * from './queue-claim';
export * from './sweep';
