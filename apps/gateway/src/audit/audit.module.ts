import { Global, Module } from '@nestjs/common';
import { AuditInterceptor } from './audited';
import { AuditLogController } from './audit-log.controller';
import { DashboardAuditRepository } from './dashboard-audit.repository';

/**
 * The merchant's audit log (docs/api.md, Audit log): its table, the interceptor that writes each `@Audited`
 * change, and the route that reads it. Global, because `@Audited` puts the interceptor on its route only (no
 * interceptor on every route: docs/performance.md) and each module with an audited route resolves it there.
 */
@Global()
@Module({
  controllers: [AuditLogController],
  providers: [DashboardAuditRepository, AuditInterceptor],
  exports: [DashboardAuditRepository, AuditInterceptor],
})
export class AuditModule {}
