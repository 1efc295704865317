import { DynamicModule, INestApplicationContext, InjectionToken, Module, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Clock } from '@app/clock';
import { DashboardAuditRepository } from '../audit/dashboard-audit.repository';
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
import { AdminModule } from '../admin/admin.module';
import { ADMIN_TOKEN, AdminGuard } from '../admin/admin.guard';
import { AccountsModule } from '../auth/accounts.module';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuthFailures } from '../auth/auth-failures';
import { MerchantsService } from '../auth/merchants.service';
import { GatewayConfig } from '../config';
import { DashboardOperatorsModule } from '../dashboard/dashboard-operators.module';
import { DashboardUsersService } from '../dashboard/dashboard-users.service';
import { GatewayIdempotency } from '../idempotency/gateway-idempotency';
import { HttpExceptionFilter } from '../http/http-exception.filter';
import { GatewayValidationPipe } from '../http/validation.pipe';
import { lentFrom, withoutLifecycle } from './lend';

/** The operators' route modules: the internal server's routes besides /metrics and health. */
const ROUTES = [AdminModule, DashboardOperatorsModule];

/** The operators' API controllers (merchants and keys, connections, parked renewals, dashboard users). */
export const internalControllers: Type<unknown>[] = ROUTES.flatMap(
  (m) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, m) as Type<unknown>[] | undefined) ?? [],
);

/** What the internal server's controllers, guard and filter use: the public application's own instances. */
const SHARED: readonly InjectionToken[] = [
  MerchantsService,
  ApiKeysService,
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
 * The gateway's internal server (ADMIN_PORT): the admin API (AdminModule, DashboardOperatorsModule), /metrics
 * and health, as an application of its own on a listener of its own, so none of its routes exists on the
 * public listener under any spelling of a path. It owns no connection, pool, loop or registry: it borrows the
 * public application's (its logger, NATS client, database services, metrics and readiness), which starts and
 * stops them once. Global: the route modules it imports take the borrowed instances from it.
 */
@Module({})
export class InternalModule {
  static forRoot(publicApp: INestApplicationContext, config: GatewayConfig): DynamicModule {
    return {
      module: InternalModule,
      global: true,
      imports: ROUTES,
      controllers: [HealthController, MetricsController],
      providers: [
        ...lentFrom(publicApp, SHARED),
        // The accounts' client (no sandbox clock in an operator's command), as before the module split.
        { provide: RpcClient, useFactory: () => withoutLifecycle(publicApp.select(AccountsModule).get(RpcClient)) },
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
      exports: [...SHARED, RpcClient, ADMIN_TOKEN, AuthFailures],
    };
  }
}
