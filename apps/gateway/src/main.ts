import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { uuidv7 } from '@app/clock';
import { Draining, Metrics, PinoNestLogger } from '@app/observability';
import { AppStartOptions, runMain, startAppLogging, stopOnSignals } from '@app/platform';
import { GatewayConfig, loadGatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { AuthFailures } from './auth/auth-failures';
import { installSdkCors } from './checkout/sdk-cors';
import { installDashboardSurface } from './dashboard/dashboard-surface';
import { installChallengeReturnForms, installRawWebhookBody } from './connectors/raw-webhook-body';
import { closeWhenIdle, drainHttp } from './http/drain';
import { installHooks, requestIdFrom } from './http/fastify-hooks';
import { mountOpenApi } from './http/openapi';
import { InternalModule } from './internal/internal.module';
import { formerKeyNameWarning } from './secret-keys';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** The request line and headers together: room for a long query string of unknown fields (named back, encoded). */
export const HEADER_LIMIT_BYTES = 64 * 1024;

export interface StartGatewayOptions extends AppStartOptions {
  print?: (text: string) => void;
}

export async function startGateway(o: StartGatewayOptions = {}): Promise<NestFastifyApplication> {
  const config = loadGatewayConfig(o.env);
  const logger = await startAppLogging('gateway', config, o.logDestination);
  const keyWarning = formerKeyNameWarning(config);
  if (keyWarning) logger.warn(keyWarning);
  // A failed start throws to the caller (main below exits 1; a test sees the error) instead of Nest exiting.
  const nestOptions = { logger: new PinoNestLogger(logger), abortOnError: false };
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot({ config, logger, clock: o.clock, print: o.print }),
    gatewayAdapter(config),
    nestOptions,
  );
  const fastify = app.getHttpAdapter().getInstance();
  let internal: NestFastifyApplication | undefined;
  // The internal server stops with the public one (drainHttp, app.close()), before NATS and the database.
  fastify.addHook('onClose', async () => internal && closeInternal(internal));
  try {
    internal = await NestFactory.create<NestFastifyApplication>(
      InternalModule.forRoot(app, config),
      gatewayAdapter(config),
      nestOptions,
    );
    installHooks([fastify, internal.getHttpAdapter().getInstance()], logger, app.get(Metrics), app.get(Draining));
    installSdkCors(fastify);
    installDashboardSurface(fastify, { publicBaseUrl: config.PUBLIC_BASE_URL, failures: app.get(AuthFailures) });
    installRawWebhookBody(fastify);
    installChallengeReturnForms(fastify);
    mountOpenApi(app, internal, config.PUBLIC_BASE_URL);
    await app.listen(config.PORT, config.HOST ?? '0.0.0.0');
    await internal.listen(config.ADMIN_PORT, config.ADMIN_HOST ?? config.HOST ?? '0.0.0.0');
  } catch (e) {
    await app.close();
    throw e;
  }
  internalUrls.set(app, internalUrl(internal));
  if (o.stopOnSignals) {
    // HTTP first: the requests in flight still need NATS and the database, which app.close() then closes.
    stopOnSignals(app, {
      logger,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      delayMs: config.SHUTDOWN_DELAY_MS,
      stopIntake: () => drainHttp(app),
    });
  }
  logger.info(
    { url: await app.getUrl(), adminUrl: internalUrls.get(app), publicBaseUrl: config.PUBLIC_BASE_URL },
    'gateway started',
  );
  return app;
}

/** The Fastify settings of both servers: the same limits, request ids and client addresses on each. */
function gatewayAdapter(config: GatewayConfig): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    http: { maxHeaderSize: HEADER_LIMIT_BYTES },
    // The client address is the socket's unless the hop is a configured proxy (the ingress): anyone else's
    // X-Forwarded-For is ignored, so an address-based limit cannot be dodged by a header.
    trustProxy: config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) =>
      requestIdFrom(req.headers['x-request-id'], uuidv7),
    requestIdHeader: false,
    // Stopping: a request that still arrives on an open keep-alive connection is served (with
    // `Connection: close`), not refused; the listener is closed, so no new connection comes.
    return503OnClosing: false,
  });
}

/** `http://127.0.0.1:<port>` of the listening internal server. */
function internalUrl(internal: NestFastifyApplication): string {
  return `http://127.0.0.1:${((internal.getHttpServer() as Server).address() as AddressInfo).port}`;
}

/** Closes the internal server once: its listener, its keep-alive connections once idle, its application. */
async function closeInternal(internal: NestFastifyApplication): Promise<void> {
  const server = internal.getHttpServer() as Server;
  if (!server.listening) return;
  await closeWhenIdle(server, () => internal.close());
}

const internalUrls = new WeakMap<NestFastifyApplication, string>();

/** Where a started gateway serves its admin API, /metrics and full API description. */
export function gatewayAdminUrl(app: NestFastifyApplication): string {
  const url = internalUrls.get(app);
  if (!url) throw new Error('not a started gateway');
  return url;
}

if (require.main === module) runMain('gateway', startGateway);
