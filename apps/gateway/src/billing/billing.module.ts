import { Module } from '@nestjs/common';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { DunningController } from './dunning.controller';
import { PlansController } from './plans.controller';
import { RecoveryPolicyController } from './recovery-policy.controller';
import { RecoveryReportController } from './recovery-report.controller';
import { SubscriptionsController } from './subscriptions.controller';
import { UsageController } from './usage.controller';

/** The billing routes (all forwarded to the billing service). */
@Module({
  imports: [SandboxClockModule],
  controllers: [
    PlansController,
    RecoveryPolicyController,
    RecoveryReportController,
    SubscriptionsController,
    DunningController,
    UsageController,
  ],
})
export class BillingModule {}
