/**
 * The pipelined hot path: named prepared statements (`statement`, `runStatement`), transactions whose statements
 * leave together on a connection in pipeline mode (`pipelinedTransaction`, `deferStatement`, `deferQuery`, the
 * before- and after-commit hooks), writes gathered over a transaction into one statement (`gatherRow`), and group
 * commit, which runs the works that arrive together in one transaction (`GroupCommit`, `GroupedTransactions`,
 * `batchOrEach`). A purchase's reserve and record, usage ingestion and the outbox's writes go through here.
 */
export * from './batch-or-each';
export * from './driver-internals';
export * from './gathered-rows';
export * from './group-commit';
export * from './grouped-transactions';
export * from './pipelined-transaction';
export * from './prepared';
