import { Controller, Get, HttpCode, Inject, Injectable, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';

/** One dependency that readiness depends on (the database, NATS). */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

/**
 * Whether the app has begun to stop. From that moment readiness answers 503, so a load balancer or a
 * Kubernetes Service stops sending it work while what it holds finishes.
 */
@Injectable()
export class Draining {
  private started = false;

  begin(): void {
    this.started = true;
  }

  get active(): boolean {
    return this.started;
  }
}

/** GET /health/live, /health/ready and /metrics, the same in every app. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    private readonly metrics: Metrics,
    private readonly draining: Draining,
  ) {}

  @Get('health/live')
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    if (this.draining.active) {
      await reply.status(503).send({ status: 'draining', checks: {} });
      return;
    }
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), 2000);
          return [c.name, 'ok'] as const;
        } catch (e) {
          return [c.name, `down: ${(e as Error).message}`] as const;
        }
      }),
    );
    const ok = results.every(([, s]) => s === 'ok');
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
  }

  @Get('metrics')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    await reply.header('content-type', this.metrics.contentType).send(await this.metrics.text());
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
