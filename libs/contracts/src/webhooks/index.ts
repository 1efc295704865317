export * from './commands.dto';
export * from './delivery-errors';
export * from './events.dto';
export * from './webhooks.dto';
