export * from './context';
export * from './error-codes';
export * from './events';
export * from './ping.dto';
export * from './payments';
export * from './subjects';
export * from './payments-extras';
export * from './query.dto';
