import { createServer, IncomingMessage, Server, ServerOptions } from 'node:http';
import { AddressInfo } from 'node:net';
import { NotFoundException } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { toErrorResponse } from './error-response';
import { closeWhenIdle } from './drain';
import { sendError } from './send-error';

/**
 * The internal port. The admin API, `/metrics` and the full API description (admin and sandbox routes
 * included) answer only on ADMIN_PORT, which a deployment keeps inside its network (its own Kubernetes
 * Service, no Ingress). The public port answers 404 for them, exactly as for a route that does not exist.
 *
 * Both ports serve the same Fastify routes: a request that arrives on the internal port is marked, and the
 * public port refuses the internal-only paths before any guard or handler runs.
 */
const INTERNAL = Symbol('internal-port');

type Marked = IncomingMessage & { [INTERNAL]?: true };

const INTERNAL_ONLY = [/^\/v1\/admin(\/|\?|$)/, /^\/metrics(\?|$)/];
/** Paths left out of the public API description: the admin API and the sandbox tools. */
const INTERNAL_DOCS = [/^\/v1\/admin(\/|$)/, /^\/v1\/sandbox(\/|$)/];

/** Whether a request (Node's or Fastify's) came in on the internal port. */
export function arrivedInternally(req: IncomingMessage | { raw: IncomingMessage }): boolean {
  const raw = 'raw' in req ? req.raw : req;
  return (raw as Marked)[INTERNAL] === true;
}

export function isInternalOnly(url: string): boolean {
  return INTERNAL_ONLY.some((p) => p.test(url));
}

/** Refuses internal-only paths on the public port (a hook that runs before routing's guards). */
export function guardInternalPaths(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (arrivedInternally(request.raw) || !isInternalOnly(request.url)) return done();
    const path = request.url.split('?')[0];
    sendError(reply, toErrorResponse(new NotFoundException(`Cannot ${request.method} ${path}`), String(request.id)));
  });
}

/** The API description as the public port shows it: without the admin and sandbox paths. */
export function publicDocument(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => !INTERNAL_DOCS.some((p) => p.test(path))),
  );
  return { ...document, paths };
}

/** Listens on the internal port and hands its requests to the same Fastify routes, marked as internal. */
export async function listenInternal(
  app: FastifyInstance,
  port: number,
  host: string,
  options: ServerOptions = {},
): Promise<Server> {
  const server = createServer(options, (req, res) => {
    (req as Marked)[INTERNAL] = true;
    app.routing(req, res);
  });
  server.keepAliveTimeout = app.initialConfig.keepAliveTimeout ?? 72_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** `http://127.0.0.1:<port>` of a listening internal server. */
export function internalUrl(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the internal listener and, once idle, its keep-alive connections. */
export async function closeInternal(server: Server): Promise<void> {
  if (!server.listening) return;
  await closeWhenIdle(server, () => new Promise<void>((resolve) => server.close(() => resolve())));
}
