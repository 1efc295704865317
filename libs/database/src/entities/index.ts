/**
 * Entity SQL helpers: prepared INSERT, multi-row INSERT and UPDATE, and SELECT statements built once from an
 * entity's TypeORM metadata (`entityInsert`, `entityInsertMany`, `entityInsertGathered`, `entityUpdateGathered`,
 * `entityUpdateMany`, `entitySelect`), so the entity stays the one description of its table while the hot paths
 * skip the query builder; and the column transformers those entities use (`bigintNumber`).
 */
export * from './entity-insert';
export * from './entity-rows';
export * from './entity-select';
export * from './transformers';
