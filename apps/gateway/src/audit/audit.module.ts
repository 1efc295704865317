import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditInterceptor } from './audited';
import { AuditLogController } from './audit-log.controller';
import { DashboardAuditRepository } from './dashboard-audit.repository';

/**
 * The merchant's audit log (docs/api.md, Audit log): its table, the interceptor that writes each `@Audited`
 * change of the public server, and the route that reads it.
 */
@Module({
  controllers: [AuditLogController],
  providers: [DashboardAuditRepository, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
  exports: [DashboardAuditRepository],
})
export class AuditModule {}
