import { ApiProperty } from '@nestjs/swagger';
import { MaxLength } from 'class-validator';

const TEXT = 255;
const CODE = 64;
const URL = 2048;

/**
 * The longest string each request field takes, by request class and field: free text 255 characters, codes
 * and ids 64, URLs 2048, and a few shorter ones. Over the limit: 400 VALIDATION_FAILED naming the field.
 * The classes take these through @TextLimits(); the README's table is generated from here.
 */
export const TEXT_LIMITS: Record<string, Record<string, number>> = {
  // Admin
  CreateMerchantRequest: { merchantCode: CODE, name: TEXT },
  AllowedOriginsRequest: { allowedOrigins: 200 },
  CreateKeyRequest: { merchantCodes: CODE },
  ListKeysQuery: { merchantCode: CODE },
  ConnectionRequest: { connectionCode: CODE, connectionName: TEXT, endpoint: URL },
  ConnectionCredentialsRequest: { apiKey: 512, merchantAccount: TEXT, hmacKey: 256, webhookSecret: TEXT },
  InviteDashboardUserRequest: { email: TEXT },
  DashboardMembershipRequest: { merchantCode: CODE },
  // Dashboard
  AcceptInvitationRequest: { token: CODE },
  TeamQuery: { merchantCode: CODE },
  TeamInviteRequest: { merchantCode: CODE, email: TEXT },
  TeamRoleRequest: { merchantCode: CODE },
  PasswordResetRequest: { email: TEXT },
  PasswordResetConfirmRequest: { token: CODE },
  SignInRequest: { email: TEXT, totpCode: 16 },
  TotpSetupRequest: { code: 16 },
  TotpRemoveRequest: { code: 16 },
  DashboardKeysQuery: { merchantCode: CODE },
  DashboardConnectionsQuery: { merchantCode: CODE },
  CreateDashboardKeyRequest: { name: 100, merchantCode: CODE },
  // Every merchant route and list
  MerchantQuery: { merchantCode: CODE },
  PageQuery: { startingAfter: CODE },
  ExportQuery: { createdFrom: CODE, createdTo: CODE },
  // Payments
  PurchaseRequest: { merchantCode: CODE, orderCode: TEXT, paymentMethod: 32, webhookUrl: URL, connectionCode: CODE },
  CardRequestDto: { networkTransactionId: TEXT, networkReferenceId: TEXT },
  CardDataDto: { cardholderName: TEXT, documentNumber: CODE },
  NonceDataDto: { nonce: TEXT, cardholderName: TEXT },
  TokenDataDto: { token: TEXT },
  CardAddressDto: { line1: TEXT, line2: TEXT, city: TEXT, state: TEXT, postalCode: 32 },
  ShopperDto: { id: TEXT, email: TEXT, name: TEXT },
  ApmRequestDto: {
    payerDocument: CODE,
    payerName: TEXT,
    accountHolderName: TEXT,
    accountNumber: 34,
    routingNumber: 34,
  },
  ThreeDsSetupDto: { sessionId: TEXT },
  CaptureRequest: { merchantCode: CODE, reference: TEXT },
  CancelRequest: { merchantCode: CODE, reference: TEXT },
  CancelOrRefundRequest: { merchantCode: CODE, reference: TEXT },
  ListPaymentsQuery: { orderCode: TEXT, search: TEXT, email: TEXT },
  RefundRequest: { reason: TEXT },
  CaptureCommand: { id: CODE },
  RefundCommand: { id: CODE, reason: TEXT },
  CancelCommand: { id: CODE },
  CancelOrRefundCommand: { id: CODE },
  ResumeRequest: { sessionId: TEXT },
  SettleRequest: { merchantCode: CODE },
  SandboxChallengeRequest: { merchantCode: CODE },
  SdkSessionRequest: { merchantCode: CODE, customerId: TEXT },
  NonceCardData: { cardholderName: TEXT },
  AdvanceClockRequest: { merchantCode: CODE, to: CODE, by: CODE },
  // Payment links
  CreatePaymentLinkRequest: {
    merchantCode: CODE,
    title: TEXT,
    description: TEXT,
    reference: TEXT,
    customerEmail: TEXT,
    customerName: TEXT,
    returnUrl: URL,
  },
  ListPaymentLinksCommand: { startingAfter: CODE },
  PayLinkRequest: { nonce: TEXT, customerEmail: TEXT, customerName: TEXT },
  ResumeLinkRequest: { sessionId: TEXT },
  // Billing
  CreatePlanRequest: { merchantCode: CODE, name: TEXT, description: TEXT },
  UpdatePlanRequest: { merchantCode: CODE, name: TEXT, description: TEXT },
  CreateMeterRequest: { merchantCode: CODE, name: TEXT },
  CreateSubscriptionRequest: {
    merchantCode: CODE,
    customerEmail: TEXT,
    customerName: TEXT,
    customerDocument: CODE,
    firstPaymentId: CODE,
    parentSubscriptionId: CODE,
  },
  ListSubscriptionsQuery: { customerEmail: TEXT },
  MerchantBody: { merchantCode: CODE },
  RecoveryPolicyRequest: { merchantCode: CODE },
  ReportRangeQuery: { merchantCode: CODE, from: 10, to: 10 },
  ChangePlanRequest: { merchantCode: CODE },
  PaymentMethodRequest: { merchantCode: CODE },
  UsageEventFields: { subscriptionId: CODE, meterCode: CODE, occurredAt: CODE },
  UsageRequest: { merchantCode: CODE },
  UsageBatchRequest: { merchantCode: CODE },
  // Webhooks
  CreateWebhookEndpointRequest: { url: URL, description: TEXT },
  UpdateWebhookEndpointRequest: { url: URL, description: TEXT },
};

/**
 * Applies the class's row of TEXT_LIMITS to its fields (validation and the OpenAPI `maxLength`); a class
 * without a row is a mistake found at startup.
 */
export function TextLimits(): ClassDecorator {
  return (target) => {
    const row = TEXT_LIMITS[target.name];
    if (!row) throw new Error(`TEXT_LIMITS has no row for ${target.name}`);
    for (const [field, max] of Object.entries(row)) {
      const isArray = Reflect.getMetadata('design:type', target.prototype, field) === Array;
      MaxLength(max, { each: isArray })(target.prototype, field);
      if (!isArray && Reflect.getMetadata('swagger/apiModelProperties', target.prototype, field)) {
        ApiProperty({ maxLength: max })(target.prototype, field);
      }
    }
  };
}
