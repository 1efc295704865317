import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@app/errors';
import { AuthFailures } from '../auth/auth-failures';

export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');

/** `Authorization: Bearer <ADMIN_TOKEN>`; with no ADMIN_TOKEN configured the admin API is off (403). */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(
    @Inject(ADMIN_TOKEN) token: string | undefined,
    private readonly failures: AuthFailures,
  ) {
    this.expected = token ? digest(token) : undefined;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return this.failures.check(request, () => this.authenticate(request));
  }

  private authenticate(request: FastifyRequest): boolean {
    if (!this.expected)
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'The admin API is off: ADMIN_TOKEN is not set');
    const header = (request.headers.authorization ?? '').trim();
    const match = /^bearer\s+(\S+)$/i.exec(header);
    if (!header || /^bearer$/i.test(header)) throw new DomainError('AUTH_MISSING', 'Admin token required');
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new DomainError('AUTH_INVALID', 'Invalid admin token');
    }
    return true;
  }
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
