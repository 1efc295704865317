export * from './bootstrap-service';
export * from './ping.handler';
export * from './platform.module';
export * from './loops';
export * from './ttl-cache';
export * from './stop-on-signals';
export * from './sandbox-advance';
