import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { requestContext } from '@app/observability';
import { resolveFieldAliases } from './field-aliases';
import { knownProperties } from './ignored-fields';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function;

/**
 * `value` without the fields `type` does not declare, at any depth (a copy), and their paths ("browserInfo",
 * "card.wallet"): what the validation pipe's whitelist drops and unknownFieldPaths names.
 */
export function withoutUnknownFields(type: Ctor, value: unknown, prefix = ''): { value: unknown; ignored: string[] } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { value, ignored: [] };
  const known = knownProperties(type);
  if (known.size === 0) return { value, ignored: [] };
  const out: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!known.has(key)) {
      ignored.push(path);
      continue;
    }
    const nested = known.get(key);
    if (!nested) {
      out[key] = child;
    } else if (Array.isArray(child)) {
      out[key] = child.map((item, i) => {
        const inner = withoutUnknownFields(nested, item, `${path}[${i}]`);
        ignored.push(...inner.ignored);
        return inner.value;
      });
    } else {
      const inner = withoutUnknownFields(nested, child, path);
      ignored.push(...inner.ignored);
      out[key] = inner.value;
    }
  }
  return { value: out, ignored };
}

/**
 * `@ForwardedBody(Dto) body: Dto` on a route that only forwards its body to a service command whose
 * `@CommandBody()` is the same class: the gateway resolves the aliases (FieldAliases), drops the unknown
 * fields and records them for X-Ignored-Fields, as the validation pipe does, and leaves the validation itself
 * to the service, which validates every command anyway (a NATS message bypasses the gateway). A body that
 * fails it is the same 400 VALIDATION_FAILED, naming the field, and nothing is written: the service validates
 * before its handler runs. One validation per request instead of two: class-transformer and class-validator
 * were about a seventh of the gateway's CPU per purchase (docs/performance.md). The global pipe leaves a
 * custom parameter decorator alone.
 */
export const ForwardedBody = createParamDecorator((type: Ctor, context: ExecutionContext): unknown => {
  const body = context.switchToHttp().getRequest<FastifyRequest>().body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw DomainError.validation('The request body must be a JSON object');
  }
  const { value, ignored } = withoutUnknownFields(type, resolveFieldAliases(type, body ?? {}));
  const store = requestContext.getStore();
  if (ignored.length && store) (store.ignoredFields ??= []).push(...ignored);
  return value;
});
