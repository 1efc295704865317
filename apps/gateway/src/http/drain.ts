import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { repeatDuring } from '@app/platform';

/** How often a draining gateway closes the keep-alive connections that went idle. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops taking HTTP work and resolves once the requests in flight are answered: the listener closes (no new
 * connection), every response sent from now on says `Connection: close` (the onSend hook, see installHooks),
 * and a keep-alive connection whose response left just before the signal is closed once idle. Fastify's own
 * close only closes the connections idle at that moment, and then waits out their keep-alive timeout.
 */
export async function drainHttp(app: NestFastifyApplication): Promise<void> {
  await closeWhenIdle(app.getHttpServer() as Server, () => app.getHttpAdapter().close());
}

/** Runs `close` (which stops the listener and waits for it) while closing the connections that go idle. */
export async function closeWhenIdle(server: Server, close: () => Promise<void>): Promise<void> {
  await repeatDuring(IDLE_SWEEP_MS, () => server.closeIdleConnections(), close);
}
