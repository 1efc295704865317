import { PlansController } from './plans.controller';

/** The billing routes (all forwarded to the billing service). */
export const billingControllers = [PlansController];
