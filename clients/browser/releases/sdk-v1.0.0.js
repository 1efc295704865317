"use strict";
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
    const current = document.currentScript;
    const BASE = current && current.src ? new URL(current.src).origin : window.location.origin;
    function sdkError(message, status, code, extra = {}) {
        const e = new Error(message);
        Object.assign(e, { name: 'PaymentsSDKError', status, code }, extra);
        return e;
    }
    async function call(path, token, body) {
        let response;
        try {
            response = await fetch(BASE + path, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
                body: JSON.stringify(body),
                credentials: 'omit',
            });
        }
        catch {
            throw sdkError('The payment service could not be reached. Check your connection and try again.', 0, 'NETWORK_ERROR');
        }
        const data = await response.json().catch(() => ({}));
        if (!response.ok) {
            const err = (data && data.error) || {};
            throw sdkError(err.message || 'The request failed', response.status, err.code || 'ERROR', { param: err.param });
        }
        return data;
    }
    const digits = (value) => String(value ?? '').replace(/[\s-]/g, '');
    /** Accepts "MM", "YY" or "YYYY"; answers the "MM" and "YYYY" strings the nonce route takes. */
    function expiry(month, year) {
        let m = digits(month);
        let y = digits(year);
        if (m.length === 1)
            m = `0${m}`;
        if (y.length === 2)
            y = `20${y}`;
        return { expiryMonth: m, expiryYear: y };
    }
    function css(el, rules) {
        Object.assign(el.style, rules);
        return el;
    }
    /** Shows the challenge page framed in a modal dialog and waits for its outcome message. */
    function challenge(action) {
        return new Promise((resolve) => {
            const previous = document.activeElement;
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
            function onMessage(event) {
                const m = event.data;
                if (event.origin !== origin || event.source !== frame.contentWindow)
                    return;
                if (!m || m.type !== 'threeds_challenge_complete' || m.sessionId !== action.sessionId)
                    return;
                window.removeEventListener('message', onMessage);
                overlay.remove();
                if (previous && previous.focus)
                    previous.focus();
                resolve(m.outcome);
            }
            window.addEventListener('message', onMessage);
        });
    }
    function within(promise, ms, error) {
        let timer;
        const late = new Promise((_, reject) => (timer = setTimeout(() => reject(error), ms)));
        return Promise.race([promise, late]).finally(() => clearTimeout(timer));
    }
    /** The merchant a client token names (its payload is readable; the gateway verifies its signature). */
    function merchantOf(token) {
        try {
            const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
            const code = JSON.parse(atob(payload)).merchantCode;
            if (typeof code === 'string' && code)
                return code;
        }
        catch {
            // reported below
        }
        throw sdkError('The client token is not one from POST /v1/sdk/session', 0, 'CONFIG');
    }
    const LABELS = {
        cardNumber: 'Card number',
        cardExpiry: 'Expiry date',
        cardCvc: 'Security code',
        cardholderName: 'Name on card',
    };
    const PLACEHOLDERS = {
        cardNumber: '1234 1234 1234 1234',
        cardExpiry: 'MM / YY',
        cardCvc: 'CVC',
        cardholderName: '',
    };
    function mergeStyle(a, b) {
        const out = {};
        for (const layer of ['base', 'placeholder', 'focus', 'invalid', 'complete']) {
            out[layer] = { ...(a && a[layer]), ...(b && b[layer]) };
        }
        return out;
    }
    function createFields(token, options = {}) {
        const merchant = merchantOf(token);
        const channel = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
        const fields = new Map();
        const pending = new Map();
        class FieldFrame {
            constructor(type, options) {
                this.type = type;
                this.options = options;
                this.handlers = {};
                this.ready = new Promise((resolve) => (this.markReady = resolve));
            }
            mount(target) {
                const container = typeof target === 'string' ? document.querySelector(target) : target;
                if (!container)
                    throw sdkError(`No element matches ${String(target)}`, 0, 'CONFIG');
                if (this.frame)
                    throw sdkError(`The ${this.type} field is already mounted`, 0, 'CONFIG');
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
            unmount() {
                this.frame?.remove();
                this.container?.classList.remove(...Array.from(this.container.classList).filter((c) => c.startsWith('payments-field')));
                this.frame = undefined;
                this.container = undefined;
                fields.delete(this.type);
            }
            on(event, handler) {
                (this.handlers[event] = this.handlers[event] || []).push(handler);
                return this;
            }
            off(event, handler) {
                this.handlers[event] = (this.handlers[event] || []).filter((h) => h !== handler);
                return this;
            }
            focus() {
                this.frame?.focus();
                this.post({ type: 'focus' });
            }
            clear() {
                this.post({ type: 'clear' });
            }
            update(next) {
                this.options = { ...this.options, ...next };
                this.post({ type: 'update', ...this.settings() });
            }
            post(message) {
                void this.ready.then(() => this.frame?.contentWindow?.postMessage({ ...message, channel }, BASE));
            }
            whenReady() {
                return this.ready;
            }
            settings() {
                return {
                    style: mergeStyle(options.style, this.options.style),
                    placeholder: this.options.placeholder ?? PLACEHOLDERS[this.type],
                    label: this.options.label || LABELS[this.type],
                };
            }
            emit(event, payload) {
                for (const h of this.handlers[event] || [])
                    h({ field: this.type, ...payload });
            }
            flag(name, on) {
                this.container?.classList.toggle(`payments-field--${name}`, on);
            }
            receive(m) {
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
                        const { empty, complete, valid, brand, error } = m;
                        this.flag('empty', empty);
                        this.flag('complete', complete && valid);
                        this.flag('invalid', Boolean(error));
                        this.emit('change', { empty, complete, valid, ...(brand ? { brand } : {}), ...(error ? { error } : {}) });
                        break;
                    }
                    case 'focus':
                    case 'blur':
                        // One field has the focus at a time, whatever order the frames report in.
                        if (m.type === 'focus')
                            for (const other of fields.values())
                                if (other !== this)
                                    other.flag('focus', false);
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
        window.addEventListener('message', (event) => {
            const m = event.data;
            if (event.origin !== BASE || !m || m.source !== 'payments-field' || m.channel !== channel)
                return;
            const f = fields.get(m.field);
            if (!f || !f.frame || event.source !== f.frame.contentWindow)
                return;
            f.receive(m);
        });
        return {
            create(type, fieldOptions = {}) {
                if (!(type in LABELS))
                    throw sdkError(`Unknown field type ${String(type)}`, 0, 'CONFIG');
                if (fields.has(type))
                    throw sdkError(`A ${type} field already exists`, 0, 'CONFIG');
                const f = new FieldFrame(type, fieldOptions);
                fields.set(type, f);
                return f;
            },
            get(type) {
                return fields.get(type);
            },
            async createNonce(extra = {}) {
                const number = fields.get('cardNumber');
                if (!number || !number.frame)
                    throw sdkError('Mount the cardNumber field first', 0, 'CONFIG');
                // A frame that never loads was refused: the page's origin is not registered for the merchant.
                const loaded = Promise.all(Array.from(fields.values(), (f) => f.whenReady()));
                const refused = sdkError('The card fields did not load: register this page’s origin for the merchant (allowed origins)', 0, 'FIELDS_NOT_LOADED');
                await within(loaded, 10000, refused);
                const requestId = Math.random().toString(36).slice(2);
                const asked = new Promise((resolve) => {
                    pending.set(requestId, resolve);
                    number.post({
                        type: 'tokenize',
                        requestId,
                        fields: Array.from(fields.keys()),
                        cardholderName: extra.cardholderName,
                    });
                });
                const unanswered = sdkError('The payment service did not answer in time. Try again.', 0, 'NETWORK_ERROR');
                const answer = await within(asked, 60000, unanswered).finally(() => pending.delete(requestId));
                const error = answer.error;
                if (error)
                    throw sdkError(error.message, error.status, error.code, { field: error.field, param: error.param });
                return {
                    nonce: String(answer.nonce),
                    expiresAt: String(answer.expiresAt),
                    card: answer.card,
                };
            },
        };
    }
    function init(options) {
        if (!options || typeof options.clientToken !== 'string' || !options.clientToken) {
            throw sdkError('PaymentsSDK.init needs { clientToken } from your server (POST /v1/sdk/session)', 0, 'CONFIG');
        }
        const token = options.clientToken;
        return {
            fields: (fieldsOptions) => createFields(token, fieldsOptions),
            createNonce(card) {
                const exp = expiry(card.expiryMonth, card.expiryYear);
                const data = { cardNumber: digits(card.cardNumber), ...exp };
                if (card.cvv)
                    data.cvv = digits(card.cvv);
                if (card.cardholderName)
                    data.cardholderName = String(card.cardholderName).trim();
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
