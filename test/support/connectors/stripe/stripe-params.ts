/**
 * The request parameters Stripe accepts, as the `stripe` package (22.5.0) types them, and the parsing and check
 * of a form-encoded body against them. Stripe answers a parameter it does not know with 400 `parameter_unknown`
 * (docs.stripe.com/error-codes#parameter-unknown), and so does the double.
 *
 * Leaves: the value's type. `object`: a nested hash the double takes without looking inside (it never acts on
 * it). `map`: free-form string values (metadata).
 */
type Leaf = 'string' | 'integer' | 'boolean' | 'map' | 'object' | 'string[]' | 'boolean|object';
export type ParamSpec = { readonly [name: string]: Leaf | ParamSpec };

const names = (leaf: Leaf, list: string): Record<string, Leaf> =>
  Object.fromEntries(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((name) => [name, leaf]),
  );

/** Stripe.PaymentIntentCreateParams.PaymentMethodOptions.Card */
const PAYMENT_INTENT_CARD_OPTIONS: ParamSpec = {
  ...names(
    'object',
    `installments mandate_options request_extended_authorization request_incremental_authorization
     request_multicapture request_overcapture three_d_secure`,
  ),
  ...names(
    'string',
    `capture_method cvc_token network request_three_d_secure setup_future_usage statement_descriptor_suffix_kana
     statement_descriptor_suffix_kanji`,
  ),
  ...names('boolean', 'moto require_cvc_recollection'),
  // Not in the package's types: Stripe's gated card-on-file migration parameter (`mit_exemption`), which the
  // connector sends on merchant-initiated charges citing a network transaction id (docs/connectors-stripe.md).
  mit_exemption: { network_transaction_id: 'string' },
};

/** Stripe.PaymentIntentCreateParams.PaymentMethodOptions: only `card` is looked into. */
const PAYMENT_METHOD_OPTIONS: ParamSpec = {
  ...names(
    'object',
    `acss_debit affirm afterpay_clearpay alipay alma amazon_pay au_becs_debit bacs_debit bancontact billie bizum
     blik boleto card_present cashapp crypto customer_balance eps fpx giropay grabpay ideal interac_present
     kakao_pay klarna konbini kr_card link mb_way mobilepay multibanco naver_pay nz_bank_account oxxo p24
     pay_by_bank payco paynow paypal payto pix promptpay revolut_pay samsung_pay satispay scalapay sepa_debit
     sofort sunbit swish twint upi us_bank_account wechat_pay zip`,
  ),
  card: PAYMENT_INTENT_CARD_OPTIONS,
};

/** Stripe.PaymentIntentCreateParams */
export const PAYMENT_INTENT_CREATE: ParamSpec = {
  ...names('integer', 'amount application_fee_amount'),
  ...names(
    'string',
    `currency capture_method confirmation_method confirmation_token customer customer_account description mandate
     on_behalf_of payment_method payment_method_configuration receipt_email return_url setup_future_usage
     statement_descriptor statement_descriptor_suffix transfer_group`,
  ),
  ...names('boolean', 'confirm error_on_requires_action use_stripe_sdk'),
  ...names('string[]', 'allowed_payment_method_types excluded_payment_method_types expand payment_method_types'),
  ...names(
    'object',
    `amount_details automatic_payment_methods hooks mandate_data payment_details payment_method_data radar_options
     shipping transfer_data`,
  ),
  metadata: 'map',
  off_session: 'boolean|object',
  payment_method_options: PAYMENT_METHOD_OPTIONS,
};
export const PAYMENT_INTENT_CREATE_REQUIRED = ['amount', 'currency'];

/** Stripe.PaymentIntentConfirmParams */
export const PAYMENT_INTENT_CONFIRM: ParamSpec = {
  ...names('integer', 'amount_to_confirm'),
  ...names('string', 'capture_method confirmation_token mandate payment_method receipt_email return_url'),
  ...names('string', 'setup_future_usage'),
  ...names('boolean', 'error_on_requires_action use_stripe_sdk'),
  ...names('string[]', 'allowed_payment_method_types excluded_payment_method_types expand payment_method_types'),
  ...names('object', 'amount_details hooks mandate_data payment_details payment_method_data radar_options shipping'),
  off_session: 'boolean|object',
  payment_method_options: PAYMENT_METHOD_OPTIONS,
};

/** Stripe.PaymentIntentCaptureParams */
export const PAYMENT_INTENT_CAPTURE: ParamSpec = {
  ...names('integer', 'amount_to_capture application_fee_amount'),
  ...names('string', 'statement_descriptor statement_descriptor_suffix'),
  ...names('boolean', 'final_capture'),
  ...names('string[]', 'expand'),
  ...names('object', 'amount_details hooks payment_details transfer_data'),
  metadata: 'map',
};

/** Stripe.PaymentIntentCancelParams */
export const PAYMENT_INTENT_CANCEL: ParamSpec = { cancellation_reason: 'string', expand: 'string[]' };
/** Stripe.PaymentIntentRetrieveParams */
export const PAYMENT_INTENT_RETRIEVE: ParamSpec = { client_secret: 'string', expand: 'string[]' };
/** Stripe.PaymentIntentListParams (with Stripe.PaginationParams) */
export const PAYMENT_INTENT_LIST: ParamSpec = {
  ...names('string', 'customer customer_account ending_before starting_after'),
  limit: 'integer',
  created: 'object',
  expand: 'string[]',
};
/** Stripe.PaymentIntentSearchParams */
export const PAYMENT_INTENT_SEARCH: ParamSpec = {
  query: 'string',
  limit: 'integer',
  page: 'string',
  expand: 'string[]',
};

/** Stripe.RefundCreateParams */
export const REFUND_CREATE: ParamSpec = {
  ...names('integer', 'amount'),
  ...names('string', 'charge currency customer instructions_email origin payment_intent reason'),
  ...names('boolean', 'refund_application_fee reverse_transfer'),
  expand: 'string[]',
  metadata: 'map',
};

/** Stripe.PaymentMethodCreateParams (BillingDetails, Address and Card looked into) */
export const PAYMENT_METHOD_CREATE: ParamSpec = {
  ...names(
    'object',
    `acss_debit affirm afterpay_clearpay alipay alma amazon_pay au_becs_debit bacs_debit bancontact billie bizum
     blik boleto cashapp crypto custom customer_balance eps fpx giropay grabpay ideal interac_present kakao_pay
     klarna konbini kr_card link mb_way mobilepay multibanco naver_pay nz_bank_account oxxo p24 pay_by_bank payco
     paynow paypal payto pix promptpay radar_options revolut_pay samsung_pay satispay scalapay sepa_debit sofort
     sunbit swish twint upi us_bank_account wechat_pay zip`,
  ),
  ...names('string', 'allow_redisplay customer payment_method type'),
  expand: 'string[]',
  metadata: 'map',
  billing_details: {
    address: names('string', 'city country line1 line2 postal_code state'),
    ...names('string', 'email name phone tax_id'),
  },
  card: { ...names('string', 'cvc number token'), ...names('integer', 'exp_month exp_year'), networks: 'object' },
};

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

/** `a[b][0]=x&a[c]=y` (the package's encoding, qs' indexed arrays) as nested objects and arrays. */
export function parseForm(body: string): Form {
  const root: Form = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p, i) => i === 0 || p !== '');
    let node: Form | FormValue[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const container = node as Record<string, FormValue>;
      if (last) container[part] = value;
      else {
        const nextIsIndex = /^\d+$/.test(parts[i + 1]) || parts[i + 1] === '';
        container[part] ??= nextIsIndex ? [] : {};
        node = container[part] as Form | FormValue[];
      }
    });
  }
  return root;
}

/** The first parameter Stripe would refuse: unknown (`parameter_unknown`) or of the wrong type (`parameter_invalid_*`). */
export function paramProblem(
  form: Form,
  spec: ParamSpec,
  prefix = '',
): { code: string; param: string; message: string } | undefined {
  for (const [name, value] of Object.entries(form)) {
    const param = prefix ? `${prefix}[${name}]` : name;
    const expected = spec[name];
    if (expected === undefined)
      return { code: 'parameter_unknown', param, message: `Received unknown parameter: ${param}` };
    const invalid = (what: string) => ({
      code: 'parameter_invalid_' + what,
      param,
      message: `Invalid ${what}: ${param}`,
    });
    if (typeof expected === 'object') {
      if (typeof value !== 'object' || Array.isArray(value)) return invalid('object');
      const nested = paramProblem(value, expected, param);
      if (nested) return nested;
    } else if (expected === 'integer' && !(typeof value === 'string' && /^-?\d+$/.test(value)))
      return invalid('integer');
    else if (expected === 'boolean' && value !== 'true' && value !== 'false') return invalid('boolean');
    else if (expected === 'boolean|object' && typeof value === 'string' && value !== 'true' && value !== 'false') {
      return invalid('boolean');
    } else if (expected === 'string' && typeof value !== 'string') return invalid('string');
    else if (expected === 'string[]' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      return invalid('array');
    } else if (expected === 'map' && (typeof value !== 'object' || Array.isArray(value))) return invalid('object');
  }
  return undefined;
}
