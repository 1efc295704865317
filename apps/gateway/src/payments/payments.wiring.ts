import { PaymentOperationsController } from './payment-operations.controller';
import { PaymentsController } from './payments.controller';

/** The payment routes (forwarded to the payments service). */
export const paymentControllers = [PaymentsController, PaymentOperationsController];
