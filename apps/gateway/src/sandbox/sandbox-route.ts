import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { PrivateRoute } from '../auth/caller.decorator';
import { Principal } from '../auth/principal';
import { ApiErrors } from '../http/api-errors';

/** Runs after the private key guard: a valid production key is not allowed on a simulation route (403). */
@Injectable()
export class SandboxOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (principal?.environment !== 'sandbox') {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'Sandbox simulation routes take a sandbox key');
    }
    return true;
  }
}

/** What a sandbox route's description starts with, so a reader of the public document knows before calling. */
export const SANDBOX_ONLY_NOTE = '**Sandbox keys only**: a production key gets 403 `AUTH_INSUFFICIENT_SCOPE`.';

/**
 * A sandbox simulation route: sandbox private key only (a production key gets 403). It is declared with its
 * operation, so every sandbox route's description says so and documents the 403 a production key gets.
 */
export const SandboxRoute = (operation: { summary: string; description: string }): MethodDecorator =>
  applyDecorators(
    PrivateRoute(),
    UseGuards(SandboxOnlyGuard),
    ApiOperation({
      summary: `${operation.summary} (sandbox keys only)`,
      description: `${SANDBOX_ONLY_NOTE}\n\n${operation.description}`,
    }),
    ApiErrors({ AUTH_INSUFFICIENT_SCOPE: 'a production key: this route takes sandbox keys only' }),
  );
