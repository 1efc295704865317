/**
 * The public API of the browser SDK (`<script src="{gateway}/v1/sdk/js">` defines `PaymentsSDK`), served as
 * `/v1/sdk/sdk.d.ts`. Reference it from a merchant's TypeScript with `/// <reference path="sdk.d.ts" />`.
 * docs/card-fields.md shows it in use.
 */
declare namespace PaymentsSDK {
  /** The card fields the gateway hosts in frames. */
  type FieldType = 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'cardholderName';

  type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

  /**
   * Text styles applied inside a field's frame. Values are data: each property takes only a value of its own
   * kind (a colour, a length, a font-family list); anything else is ignored. The frame's box (border,
   * background, padding) is the merchant's container, styled by the merchant's own CSS.
   */
  interface TextStyle {
    color?: string;
    fontFamily?: string;
    fontSize?: string;
    fontWeight?: string;
    fontStyle?: string;
    letterSpacing?: string;
    lineHeight?: string;
    textAlign?: string;
  }

  interface FieldStyle {
    /** The text as typed. */
    base?: TextStyle;
    /** The placeholder's colour. */
    placeholder?: { color?: string };
    /** The text while the field is focused. */
    focus?: TextStyle;
    /** The text of a value that is wrong (the error colour). */
    invalid?: TextStyle;
    /** The text of a value that is complete and valid. */
    complete?: TextStyle;
  }

  interface InitOptions {
    /** From your server's POST /v1/sdk/session (private key). */
    clientToken: string;
  }

  interface FieldsOptions {
    /** Applied to every field; a field's own `style` overrides it. */
    style?: FieldStyle;
  }

  interface FieldOptions {
    style?: FieldStyle;
    placeholder?: string;
    /** The accessible name of the field (also its frame's title). Defaults to "Card number", ... */
    label?: string;
  }

  /** What a field reports as the payer types: never the value itself. */
  interface ChangeEvent {
    field: FieldType;
    empty: boolean;
    complete: boolean;
    valid: boolean;
    /** The card number field only. */
    brand?: CardBrand;
    /** A message for the payer, once the value is known to be wrong. */
    error?: { message: string };
  }

  interface FocusEvent {
    field: FieldType;
  }

  interface EventMap {
    change: ChangeEvent;
    focus: FocusEvent;
    blur: FocusEvent;
    ready: FocusEvent;
  }

  interface Field {
    readonly type: FieldType;
    /** Puts the field's frame into a container (an element or a CSS selector); answers when it is ready. */
    mount(container: string | HTMLElement): Promise<void>;
    unmount(): void;
    on<K extends keyof EventMap>(event: K, handler: (event: EventMap[K]) => void): Field;
    off<K extends keyof EventMap>(event: K, handler: (event: EventMap[K]) => void): Field;
    focus(): void;
    clear(): void;
    update(options: Pick<FieldOptions, 'style' | 'placeholder'>): void;
  }

  /** What the page receives for display: never the full number or the security code. */
  interface CardSummary {
    brand: CardBrand;
    last4: string;
    expiryMonth: string;
    expiryYear: string;
  }

  interface NonceResult {
    nonce: string;
    expiresAt: string;
    card: CardSummary;
  }

  interface FieldsError extends Error {
    name: 'PaymentsSDKError';
    status: number;
    code: string;
    /** The field whose value is wrong (code VALIDATION_FAILED before anything was sent). */
    field?: FieldType;
    param?: string;
  }

  interface Fields {
    create(type: FieldType, options?: FieldOptions): Field;
    /** The mounted field of a type, if any. */
    get(type: FieldType): Field | undefined;
    /**
     * Validates the mounted fields and turns the card into a single-use nonce, inside the frames; rejects with a
     * FieldsError (code VALIDATION_FAILED and `field`) when a value is wrong. `cardholderName` is for pages
     * that collect the name themselves instead of mounting the cardholderName field.
     */
    createNonce(extra?: { cardholderName?: string }): Promise<NonceResult>;
  }

  /** A raw card for `createNonce` (pages that keep card data out of scope use `fields()` instead). */
  interface RawCard {
    cardNumber: string;
    expiryMonth: string;
    expiryYear: string;
    cvv?: string;
    cardholderName?: string;
  }

  interface ThreeDsAction {
    type: string;
    url: string;
    sessionId: string;
  }

  interface Client {
    /** Card fields hosted by the gateway in frames: the page never sees the card. */
    fields(options?: FieldsOptions): Fields;
    /** Posts a card the page collected itself (the page is then in scope for card data). */
    createNonce(card: RawCard): Promise<{ nonce: string; expiresAt: string }>;
    /**
     * Runs a payment's `actionRequired` (a 3DS challenge) in a framed dialog, then resumes the payment: by
     * default through POST /v1/payment/resume (answers the final Payment); `resumePath` names another route.
     */
    handleAction(action: ThreeDsAction, options?: { resumePath?: string }): Promise<unknown>;
  }

  interface Static {
    init(options: InitOptions): Client;
    readonly version: string;
  }
}

interface Window {
  PaymentsSDK: PaymentsSDK.Static;
}

declare const PaymentsSDK: PaymentsSDK.Static;
