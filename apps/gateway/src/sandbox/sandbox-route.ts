import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { PrivateRoute } from '../auth/caller.decorator';
import { Principal } from '../auth/principal';

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

/** A sandbox simulation route: sandbox private key only (a production key gets 403). */
export const SandboxRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(PrivateRoute(), UseGuards(SandboxOnlyGuard));
