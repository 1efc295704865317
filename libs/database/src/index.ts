/** The `@app/database` library, one folder per concern (see the opening comment of each folder's index). */
export * from './connection';
export * from './entities';
export * from './pipelined';
export * from './work-queues';
