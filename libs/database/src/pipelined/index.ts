/**
 * Transactions and the pipelined hot path: the one way to open a transaction (`inTransaction`, whose statements
 * leave together on a connection in pipeline mode), named prepared statements (`statement`, `runStatement`),
 * writes sent with the commit (`deferStatement`, `deferQuery`, the before- and after-commit hooks), writes
 * gathered over a transaction into one statement (`gatherRow`), and group commit, which runs the works that
 * arrive together in one transaction (`GroupCommit`, `GroupedTransactions`, `batchOrEach`). A purchase's reserve
 * and record, usage ingestion and the outbox's writes go through here; the reaches into pg's and TypeORM's
 * internals are all in driver-internals.ts.
 */
export * from './batch-or-each';
export * from './driver-internals';
export * from './gathered-rows';
export * from './group-commit';
export * from './grouped-transactions';
export * from './pipelined-transaction';
export * from './prepared';
