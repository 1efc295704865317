import { Controller, Get, HttpCode, Inject, Injectable, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';
import { withTimeout } from './timeout';

/** One dependency that readiness depends on (the database, NATS). */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');
/**
 * Whether a dependency that is down makes the app unready (true, the default: a service's new pod that cannot
 * reach its database or NATS must not count as ready in a rollout). The gateway says false: it answers clients
 * a JSON 503 for what a dependency cannot do, and turns unready only when it stops (docs/operations.md).
 */
export const DEPENDENCIES_GATE_READINESS = Symbol('DEPENDENCIES_GATE_READINESS');

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

/** GET /health/live and /health/ready, the same in every app. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    private readonly metrics: Metrics,
    private readonly draining: Draining,
    @Optional() @Inject(DEPENDENCIES_GATE_READINESS) private readonly dependenciesGate: boolean = true,
  ) {}

  @Get('health/live')
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    if (this.draining.active) {
      this.metrics.readiness(false);
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
    for (const [name, s] of results) this.metrics.dependencyUp(name, s === 'ok');
    const ok = results.every(([, s]) => s === 'ok');
    const ready = ok || this.dependenciesGate === false;
    this.metrics.readiness(ready);
    const status = ok ? 'ok' : ready ? 'degraded' : 'unavailable';
    await reply.status(ready ? 200 : 503).send({ status, checks: Object.fromEntries(results) });
  }
}

/** GET /metrics: the app's registry in the Prometheus text format. */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    await reply.header('content-type', this.metrics.contentType).send(await this.metrics.text());
  }
}
