export * from './commands.dto';
export * from './events.dto';
export * from './webhooks.dto';
