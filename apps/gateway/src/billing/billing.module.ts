import { DunningController } from './dunning.controller';
import { PlansController } from './plans.controller';
import { RecoveryPolicyController } from './recovery-policy.controller';
import { RecoveryReportController } from './recovery-report.controller';
import { SubscriptionsController } from './subscriptions.controller';

/** The billing routes (all forwarded to the billing service). */
export const billingControllers = [
  PlansController,
  RecoveryPolicyController,
  RecoveryReportController,
  SubscriptionsController,
  DunningController,
];
