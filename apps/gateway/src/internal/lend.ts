import type { INestApplicationContext, InjectionToken, Provider } from '@nestjs/common';

/** The hooks Nest runs on every provider instance of an application it starts or closes. */
const LIFECYCLE_HOOKS: ReadonlySet<PropertyKey> = new Set([
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

/**
 * The same object without its lifecycle hooks. Nest runs the hooks of every provider of an application, a
 * provider given by value too; an instance lent to a second application must not be started or stopped twice
 * (a second subscription, a connection closed while its owner still uses it). Everything else, state
 * included, is the owner's instance itself.
 */
export function withoutLifecycle<T>(instance: T): T {
  if (typeof instance !== 'object' || instance === null) return instance;
  if (![...LIFECYCLE_HOOKS].some((hook) => typeof (instance as Record<PropertyKey, unknown>)[hook] === 'function')) {
    return instance;
  }
  return new Proxy(instance, {
    get: (target, key, receiver) => (LIFECYCLE_HOOKS.has(key) ? undefined : Reflect.get(target, key, receiver)),
  });
}

/**
 * Providers of another application's instances, for an application that shares them: its owner creates,
 * starts and stops each one. Resolved when the borrowing application is created, not when the module is built
 * (a preview of the module graph instantiates nothing).
 */
export function lentFrom(owner: INestApplicationContext, tokens: readonly InjectionToken[]): Provider[] {
  return tokens.map((token) => ({ provide: token, useFactory: () => withoutLifecycle(owner.get(token)) }));
}
