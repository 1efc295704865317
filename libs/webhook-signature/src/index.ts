// The webhook signature has one implementation, in the typed client (it is published and builds on its own);
// the webhooks service imports it from here and the CLI from the client's source.
export {
  newSigningSecret,
  providerSignatureHeader,
  signatureHeader,
  signatureHeaders,
  verifyTheriusSignature,
  verifyWebhookSignature,
} from '../../../clients/typescript/src/signature';
export type { RawBody, Secrets, VerifyOptions } from '../../../clients/typescript/src/signature';
