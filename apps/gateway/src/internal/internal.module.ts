import { DynamicModule, INestApplicationContext, InjectionToken, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Clock } from '@app/clock';
import { DashboardAuditRepository } from '../dashboard/dashboard-audit.repository';
import {
  DEPENDENCIES_GATE_READINESS,
  Draining,
  HEALTH_CHECKS,
  HealthController,
  LOGGER,
  Metrics,
  MetricsController,
} from '@app/observability';
import { RpcClient } from '@app/messaging';
import { AdminController } from '../admin/admin.controller';
import { ADMIN_TOKEN, AdminGuard } from '../admin/admin.guard';
import { ConnectionsController } from '../admin/connections.controller';
import { ParkedRenewalsController } from '../admin/parked-renewals.controller';
import { ApiKeysService } from '../auth/api-keys.service';
import { DashboardUsersController } from '../dashboard/dashboard-users.controller';
import { DashboardUsersService } from '../dashboard/dashboard-users.service';
import { AuthFailures } from '../auth/auth-failures';
import { MerchantsService } from '../auth/merchants.service';
import { GatewayConfig } from '../config';
import { GatewayIdempotency } from '../http/gateway-idempotency';
import { HttpExceptionFilter } from '../http/http-exception.filter';
import { GatewayValidationPipe } from '../http/validation.pipe';
import { lentFrom } from './lend';

/** The operators' API: merchants and keys, routing connections, parked renewals, dashboard users. */
export const internalControllers = [
  AdminController,
  ConnectionsController,
  ParkedRenewalsController,
  DashboardUsersController,
];

/** What the internal server's controllers, guard and filter use: the public application's own instances. */
const SHARED: readonly InjectionToken[] = [
  MerchantsService,
  ApiKeysService,
  RpcClient,
  LOGGER,
  Metrics,
  Draining,
  HEALTH_CHECKS,
  DEPENDENCIES_GATE_READINESS,
  GatewayIdempotency,
  DashboardUsersService,
  DashboardAuditRepository,
  Clock,
];

/**
 * The gateway's internal server (ADMIN_PORT): the admin API, /metrics and health, as an application of its own
 * on a listener of its own, so none of its routes exists on the public listener under any spelling of a path.
 * It owns no connection, pool, loop or registry: it borrows the public application's (its logger, NATS
 * client, database services, metrics and readiness), which starts and stops them once.
 */
@Module({})
export class InternalModule {
  static forRoot(publicApp: INestApplicationContext, config: GatewayConfig): DynamicModule {
    return {
      module: InternalModule,
      controllers: [...internalControllers, HealthController, MetricsController],
      providers: [
        ...lentFrom(publicApp, SHARED),
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        { provide: APP_PIPE, useClass: GatewayValidationPipe },
        { provide: ADMIN_TOKEN, useValue: config.ADMIN_TOKEN },
        // Its own failure counter: bad keys on the public port never lock an operator out of the admin API.
        {
          provide: AuthFailures,
          inject: [Metrics],
          useFactory: (metrics: Metrics) => new AuthFailures(config.AUTH_FAILURES_PER_MINUTE, metrics),
        },
        AdminGuard,
      ],
    };
  }
}
