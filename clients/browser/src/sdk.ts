/**
 * The browser SDK served at GET /v1/sdk/js (latest) and /v1/sdk/v{version}/sdk.js (immutable). No
 * dependencies, no run-time downloads. `PaymentsSDK.init({clientToken})` answers a client whose `fields()`
 * mounts the card inputs as frames of this gateway (the page never sees the card; docs/card-fields.md), whose
 * `createNonce(card)` posts a card the page collected itself, and whose `handleAction(actionRequired)` runs the
 * 3DS challenge in a framed dialog and resumes. Styles go through the CSSOM only, so the SDK works under a
 * strict Content-Security-Policy. Its public API is payments-sdk.d.ts beside this file.
 */
(() => {
  const SDK_VERSION = '1.0.0';
  const current = document.currentScript as HTMLScriptElement | null;
  const BASE = current && current.src ? new URL(current.src).origin : window.location.origin;

  type FieldType = PaymentsSDK.FieldType;
  type Handler = (event: never) => void;

  function sdkError(message: string, status: number, code: string, extra: Record<string, unknown> = {}) {
    const e = new Error(message) as PaymentsSDK.FieldsError;
    Object.assign(e, { name: 'PaymentsSDKError', status, code }, extra);
    return e;
  }

  async function call<T>(path: string, token: string, body: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(BASE + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        credentials: 'omit',
      });
    } catch {
      throw sdkError(
        'The payment service could not be reached. Check your connection and try again.',
        0,
        'NETWORK_ERROR',
      );
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const err = (data && data.error) || {};
      throw sdkError(err.message || 'The request failed', response.status, err.code || 'ERROR', { param: err.param });
    }
    return data as T;
  }

  const digits = (value: unknown): string => String(value ?? '').replace(/[\s-]/g, '');

  /** Accepts "MM", "YY" or "YYYY"; answers the "MM" and "YYYY" strings the nonce route takes. */
  function expiry(month: string, year: string): { expiryMonth: string; expiryYear: string } {
    let m = digits(month);
    let y = digits(year);
    if (m.length === 1) m = `0${m}`;
    if (y.length === 2) y = `20${y}`;
    return { expiryMonth: m, expiryYear: y };
  }

  function css<T extends HTMLElement>(el: T, rules: Partial<CSSStyleDeclaration>): T {
    Object.assign(el.style, rules);
    return el;
  }

  /** Shows the challenge page framed in a modal dialog and waits for its outcome message. */
  function challenge(action: PaymentsSDK.ThreeDsAction): Promise<unknown> {
    return new Promise((resolve) => {
      const previous = document.activeElement as HTMLElement | null;
      const overlay = css(document.createElement('div'), {
        position: 'fixed',
        inset: '0',
        background: 'rgba(15, 23, 42, 0.55)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        zIndex: '2147483647',
        padding: '16px',
      });
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', 'Verify your payment with your bank');
      overlay.setAttribute('data-payments-sdk', 'challenge');
      const frame = css(document.createElement('iframe'), {
        width: '100%',
        maxWidth: '440px',
        height: '460px',
        maxHeight: '90vh',
        border: '0',
        borderRadius: '12px',
        background: '#fff',
        boxShadow: '0 20px 50px rgba(0, 0, 0, 0.3)',
      });
      frame.title = 'Payment verification';
      frame.src = action.url;
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
      frame.focus();
      const origin = new URL(action.url).origin;
      function onMessage(event: MessageEvent): void {
        const m = event.data;
        if (event.origin !== origin || event.source !== frame.contentWindow) return;
        if (!m || m.type !== 'threeds_challenge_complete' || m.sessionId !== action.sessionId) return;
        window.removeEventListener('message', onMessage);
        overlay.remove();
        if (previous && previous.focus) previous.focus();
        resolve(m.outcome);
      }
      window.addEventListener('message', onMessage);
    });
  }

  function within<T>(promise: Promise<T>, ms: number, error: Error): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error), ms)));
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }

  /** The merchant a client token names (its payload is readable; the gateway verifies its signature). */
  function merchantOf(token: string): string {
    try {
      const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      const code = JSON.parse(atob(payload)).merchantCode;
      if (typeof code === 'string' && code) return code;
    } catch {
      // reported below
    }
    throw sdkError('The client token is not one from POST /v1/sdk/session', 0, 'CONFIG');
  }

  const LABELS: Record<FieldType, string> = {
    cardNumber: 'Card number',
    cardExpiry: 'Expiry date',
    cardCvc: 'Security code',
    cardholderName: 'Name on card',
  };
  const PLACEHOLDERS: Record<FieldType, string> = {
    cardNumber: '1234 1234 1234 1234',
    cardExpiry: 'MM / YY',
    cardCvc: 'CVC',
    cardholderName: '',
  };

  function mergeStyle(a?: PaymentsSDK.FieldStyle, b?: PaymentsSDK.FieldStyle): PaymentsSDK.FieldStyle {
    const out: Record<string, object> = {};
    for (const layer of ['base', 'placeholder', 'focus', 'invalid', 'complete'] as const) {
      out[layer] = { ...(a && a[layer]), ...(b && b[layer]) };
    }
    return out;
  }

  function createFields(token: string, options: PaymentsSDK.FieldsOptions = {}): PaymentsSDK.Fields {
    const merchant = merchantOf(token);
    const channel = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    );
    const fields = new Map<FieldType, FieldFrame>();
    const pending = new Map<string, (m: Record<string, unknown>) => void>();

    class FieldFrame implements PaymentsSDK.Field {
      frame?: HTMLIFrameElement;
      container?: HTMLElement;
      private handlers: Record<string, Handler[]> = {};
      private ready: Promise<void>;
      private markReady!: () => void;

      constructor(
        readonly type: FieldType,
        private options: PaymentsSDK.FieldOptions,
      ) {
        this.ready = new Promise((resolve) => (this.markReady = resolve));
      }

      mount(target: string | HTMLElement): Promise<void> {
        const container = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
        if (!container) throw sdkError(`No element matches ${String(target)}`, 0, 'CONFIG');
        if (this.frame) throw sdkError(`The ${this.type} field is already mounted`, 0, 'CONFIG');
        const query = new URLSearchParams({ field: this.type, merchant, origin: window.location.origin, channel });
        const label = this.options.label || LABELS[this.type];
        const frame = css(document.createElement('iframe'), {
          border: '0',
          width: '100%',
          height: '24px',
          display: 'block',
          background: 'transparent',
          overflow: 'hidden',
        });
        frame.title = label;
        frame.setAttribute('scrolling', 'no');
        frame.setAttribute('allowtransparency', 'true');
        frame.src = `${BASE}/v1/sdk/fields/frame?${query}`;
        container.classList.add('payments-field', 'payments-field--empty');
        container.appendChild(frame);
        this.frame = frame;
        this.container = container;
        return this.ready;
      }

      unmount(): void {
        this.frame?.remove();
        this.container?.classList.remove(
          ...Array.from(this.container.classList).filter((c) => c.startsWith('payments-field')),
        );
        this.frame = undefined;
        this.container = undefined;
        fields.delete(this.type);
      }

      on<K extends keyof PaymentsSDK.EventMap>(event: K, handler: (e: PaymentsSDK.EventMap[K]) => void): this {
        (this.handlers[event] = this.handlers[event] || []).push(handler as Handler);
        return this;
      }

      off<K extends keyof PaymentsSDK.EventMap>(event: K, handler: (e: PaymentsSDK.EventMap[K]) => void): this {
        this.handlers[event] = (this.handlers[event] || []).filter((h) => h !== (handler as Handler));
        return this;
      }

      focus(): void {
        this.frame?.focus();
        this.post({ type: 'focus' });
      }

      clear(): void {
        this.post({ type: 'clear' });
      }

      update(next: Pick<PaymentsSDK.FieldOptions, 'style' | 'placeholder'>): void {
        this.options = { ...this.options, ...next };
        this.post({ type: 'update', ...this.settings() });
      }

      post(message: Record<string, unknown>): void {
        void this.ready.then(() => this.frame?.contentWindow?.postMessage({ ...message, channel }, BASE));
      }

      whenReady(): Promise<void> {
        return this.ready;
      }

      private settings(): Record<string, unknown> {
        return {
          style: mergeStyle(options.style, this.options.style),
          placeholder: this.options.placeholder ?? PLACEHOLDERS[this.type],
          label: this.options.label || LABELS[this.type],
        };
      }

      private emit(event: string, payload: object): void {
        for (const h of this.handlers[event] || []) (h as (e: object) => void)({ field: this.type, ...payload });
      }

      flag(name: string, on: boolean): void {
        this.container?.classList.toggle(`payments-field--${name}`, on);
      }

      receive(m: Record<string, unknown>): void {
        switch (m.type) {
          case 'ready': {
            const init = {
              type: 'init',
              channel,
              ...this.settings(),
              ...(this.type === 'cardNumber' ? { clientToken: token } : {}),
            };
            this.frame?.contentWindow?.postMessage(init, BASE);
            this.markReady();
            this.emit('ready', {});
            break;
          }
          case 'change': {
            const { empty, complete, valid, brand, error } = m as unknown as PaymentsSDK.ChangeEvent;
            this.flag('empty', empty);
            this.flag('complete', complete && valid);
            this.flag('invalid', Boolean(error));
            this.emit('change', { empty, complete, valid, ...(brand ? { brand } : {}), ...(error ? { error } : {}) });
            break;
          }
          case 'focus':
          case 'blur':
            // One field has the focus at a time, whatever order the frames report in.
            if (m.type === 'focus') for (const other of fields.values()) if (other !== this) other.flag('focus', false);
            this.flag('focus', m.type === 'focus');
            this.emit(m.type, {});
            break;
          case 'resize':
            if (this.frame && typeof m.height === 'number' && m.height > 0)
              this.frame.style.height = `${Math.min(m.height, 200)}px`;
            break;
          case 'tokenized':
            pending.get(String(m.requestId))?.(m);
            break;
        }
      }
    }

    window.addEventListener('message', (event: MessageEvent) => {
      const m = event.data;
      if (event.origin !== BASE || !m || m.source !== 'payments-field' || m.channel !== channel) return;
      const f = fields.get(m.field);
      if (!f || !f.frame || event.source !== f.frame.contentWindow) return;
      f.receive(m);
    });

    return {
      create(type, fieldOptions = {}) {
        if (!(type in LABELS)) throw sdkError(`Unknown field type ${String(type)}`, 0, 'CONFIG');
        if (fields.has(type)) throw sdkError(`A ${type} field already exists`, 0, 'CONFIG');
        const f = new FieldFrame(type, fieldOptions);
        fields.set(type, f);
        return f;
      },
      get(type) {
        return fields.get(type);
      },
      async createNonce(extra = {}) {
        const number = fields.get('cardNumber');
        if (!number || !number.frame) throw sdkError('Mount the cardNumber field first', 0, 'CONFIG');
        // A frame that never loads was refused: the page's origin is not registered for the merchant.
        const loaded = Promise.all(Array.from(fields.values(), (f) => f.whenReady()));
        const refused = sdkError(
          'The card fields did not load: register this page’s origin for the merchant (allowed origins)',
          0,
          'FIELDS_NOT_LOADED',
        );
        await within(loaded, 10_000, refused);
        const requestId = Math.random().toString(36).slice(2);
        const asked = new Promise<Record<string, unknown>>((resolve) => {
          pending.set(requestId, resolve);
          number.post({
            type: 'tokenize',
            requestId,
            fields: Array.from(fields.keys()),
            cardholderName: extra.cardholderName,
          });
        });
        const unanswered = sdkError('The payment service did not answer in time. Try again.', 0, 'NETWORK_ERROR');
        const answer = await within(asked, 60_000, unanswered).finally(() => pending.delete(requestId));
        const error = answer.error as
          { message: string; status: number; code: string; field?: string; param?: string } | undefined;
        if (error) throw sdkError(error.message, error.status, error.code, { field: error.field, param: error.param });
        return {
          nonce: String(answer.nonce),
          expiresAt: String(answer.expiresAt),
          card: answer.card as PaymentsSDK.CardSummary,
        };
      },
    };
  }

  function init(options: PaymentsSDK.InitOptions): PaymentsSDK.Client {
    if (!options || typeof options.clientToken !== 'string' || !options.clientToken) {
      throw sdkError('PaymentsSDK.init needs { clientToken } from your server (POST /v1/sdk/session)', 0, 'CONFIG');
    }
    const token = options.clientToken;
    return {
      fields: (fieldsOptions) => createFields(token, fieldsOptions),
      createNonce(card) {
        const exp = expiry(card.expiryMonth, card.expiryYear);
        const data: Record<string, string> = { cardNumber: digits(card.cardNumber), ...exp };
        if (card.cvv) data.cvv = digits(card.cvv);
        if (card.cardholderName) data.cardholderName = String(card.cardholderName).trim();
        return call('/v1/sdk/nonce', token, { cardData: data });
      },
      async handleAction(action, opts) {
        if (!action || action.type !== 'threeds_challenge') {
          throw sdkError('Only threeds_challenge actions run in the browser', 0, 'UNSUPPORTED_ACTION');
        }
        await challenge(action);
        const path = (opts && opts.resumePath) || '/v1/payment/resume';
        return call(path, token, { sessionId: action.sessionId });
      },
    };
  }

  window.PaymentsSDK = { init, version: SDK_VERSION };
})();
