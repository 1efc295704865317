import { ConnectionsController } from '../admin/connections.controller';
import { PaymentOperationsController } from './payment-operations.controller';
import { PaymentsController } from './payments.controller';

/** The payment routes and the admin routes of routing connections (all forwarded to the payments service). */
export const paymentControllers = [PaymentsController, PaymentOperationsController, ConnectionsController];
