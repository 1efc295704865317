import { METHOD_METADATA } from '@nestjs/common/constants';
import { internalControllers } from '../../apps/gateway/src/internal/internal.module';
import { operationIdOf } from '../../apps/gateway/src/http/openapi-tidy';
import { TestStack } from './stack';

/** One operation of the OpenAPI document the gateway serves. */
export interface ApiOperation {
  method: string;
  path: string;
  /** The security scheme it takes (privateKey, adminToken, clientToken), or none (keyless). */
  auth?: string;
  /** The request body's schema name, when it takes a JSON body. */
  body?: string;
  query: string[];
  /** The gateway server that has the route: the internal one for the operators' API. */
  port: 'public' | 'internal';
}

/** The operation ids of the internal server's routes: its controllers' handlers, named as the document names them. */
function internalOperationIds(): Set<string> {
  return new Set(
    internalControllers.flatMap((controller) =>
      Object.getOwnPropertyNames(controller.prototype)
        .filter((name) => {
          const handler: unknown = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value;
          return typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) !== undefined;
        })
        .map((name) => operationIdOf(controller.name, name)),
    ),
  );
}

/** Every operation of /openapi.json: tests that must cover "every route" derive their list from it. */
export async function apiOperations(stack: TestStack): Promise<ApiOperation[]> {
  // The internal port's document: every route, the admin and sandbox ones included.
  const doc = await stack.http('GET', '/openapi.json', { port: 'internal' });
  if (doc.status !== 200) throw new Error(`openapi.json: ${doc.status}`);
  const internal = internalOperationIds();
  const out: ApiOperation[] = [];
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.body.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
      out.push({
        method: method.toUpperCase(),
        path,
        auth: Object.keys(op.security?.[0] ?? {})[0],
        body: ref?.split('/').pop(),
        query: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
        port: internal.has(op.operationId) ? 'internal' : 'public',
      });
    }
  }
  return out;
}

/** The path with its `{name}` parameters filled from `values` (a fresh uuid for any other). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? crypto.randomUUID()));
}
