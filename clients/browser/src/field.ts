/**
 * One card field inside its frame on the gateway's origin (the page /v1/sdk/fields/frame). The value never
 * leaves this origin: the embedding page gets only the field's state (empty, complete, valid, brand, error)
 * and, from the card number's frame, the nonce. Messages to and from the page are checked against the one
 * origin the gateway allowed to embed this frame; the frames of one mount talk to each other over a
 * BroadcastChannel, which only pages of the gateway's origin can join. The card number's frame makes nonces
 * for one merchant only, the one whose registered origin the gateway served it to, with the client token of
 * its first `init`. docs/card-fields.md describes the flow.
 */
import {
  brandOf,
  CardBrand,
  cvcLength,
  cvcState,
  digitsOf,
  expiryState,
  FieldState,
  formatExpiry,
  formatNumber,
  MESSAGES,
  nameState,
  numberState,
  parseExpiry,
} from './card-rules.js';
import { safeStyle, StyleInput } from './field-style.js';

type FieldType = 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'cardholderName';

interface PageMessage {
  channel: string;
  type: 'init' | 'update' | 'focus' | 'clear' | 'tokenize';
  style?: StyleInput;
  placeholder?: string;
  label?: string;
  clientToken?: string;
  requestId?: string;
  fields?: FieldType[];
  cardholderName?: string;
}

/** What the frames of one mount say to each other (never to the page). */
interface SiblingMessage {
  type: 'brand' | 'collect' | 'value' | 'show-errors';
  brand?: CardBrand;
  id?: string;
  field?: FieldType;
  value?: string;
  state?: FieldState;
}

const root = document.getElementById('field') as HTMLElement;
const field = root.dataset.field as FieldType;
const pageOrigin = root.dataset.origin as string;
const channelId = root.dataset.channel as string;
const frameMerchant = root.dataset.merchant ?? '';
const input = document.getElementById('input') as HTMLInputElement;
const errorText = document.getElementById('error') as HTMLElement;
const siblings = new BroadcastChannel(`payments-fields:${channelId}`);

let brand: CardBrand = 'unknown';
/**
 * The card number's frame takes its client token from the page once, with the first `init`, and only a token
 * of the frame's merchant: any script on the page can post to the frame, and a token of another merchant
 * would turn the card typed here into a nonce of that merchant's account.
 */
let clientToken = '';
let tokenTaken = false;
let tokenRefused = false;
let style: StyleInput = {};
let focused = false;
let touched = false;
let lastSent = '';

/** Framed by the one page the gateway allowed (the Content-Security-Policy enforces it; this double-checks). */
function embeddedAsAllowed(): boolean {
  if (window.parent === window) return false;
  const ancestors = window.location.ancestorOrigins;
  return !ancestors || ancestors[0] === pageOrigin;
}

/** The merchant a client token names (its payload is readable; the gateway verifies the signature). */
function merchantOf(token: string): string | undefined {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const code = JSON.parse(atob(payload)).merchantCode;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function takeToken(m: PageMessage): void {
  if (field !== 'cardNumber' || m.type !== 'init' || tokenTaken) return;
  tokenTaken = true;
  const token = typeof m.clientToken === 'string' ? m.clientToken : '';
  if (frameMerchant && merchantOf(token) === frameMerchant) clientToken = token;
  else tokenRefused = true;
}

function send(message: Record<string, unknown>): void {
  window.parent.postMessage({ source: 'payments-field', channel: channelId, field, ...message }, pageOrigin);
}

function today(): { year: number; month: number } {
  const now = new Date();
  return { year: now.getFullYear(), month: now.getMonth() + 1 };
}

function stateOf(value: string): FieldState {
  switch (field) {
    case 'cardNumber':
      return numberState(value);
    case 'cardExpiry':
      return expiryState(value, today());
    case 'cardCvc':
      return cvcState(value, brand);
    default:
      return nameState(value);
  }
}

function formatted(value: string): string {
  switch (field) {
    case 'cardNumber':
      return formatNumber(value);
    case 'cardExpiry':
      return formatExpiry(value);
    case 'cardCvc':
      return digitsOf(value).slice(0, brand === 'unknown' ? 4 : cvcLength(brand));
    default:
      return value.replace(/\s+/g, ' ').trimStart();
  }
}

/** Reformats in place and keeps the caret after the same number of digits it followed. */
function reformat(): void {
  const value = input.value;
  const next = formatted(value);
  if (next === value) return;
  const caret = input.selectionStart ?? value.length;
  const atEnd = caret >= value.length;
  input.value = next;
  if (atEnd || field === 'cardholderName') return;
  const before = digitsOf(value.slice(0, caret)).length;
  let position = 0;
  for (let seen = 0; position < next.length && seen < before; position++) if (/\d/.test(next[position])) seen++;
  input.setSelectionRange(position, position);
}

/** A wrong value shows its error at once when it cannot become right by typing on, else once the payer leaves. */
function shownError(state: FieldState): string | undefined {
  if (!state.error || state.valid || state.empty) return undefined;
  const final = state.complete || state.error === MESSAGES.numberInvalid || state.error === MESSAGES.expiryMonthInvalid;
  return final || touched ? state.error : undefined;
}

function render(state: FieldState): void {
  const error = shownError(state);
  if (error) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  if (errorText.textContent !== (error ?? '')) errorText.textContent = error ?? '';
  const layers: (keyof StyleInput)[] = ['base'];
  if (state.complete && state.valid) layers.push('complete');
  if (focused) layers.push('focus');
  if (error) layers.push('invalid');
  input.removeAttribute('style');
  for (const layer of layers) {
    for (const [property, value] of Object.entries(safeStyle(style[layer]))) input.style.setProperty(property, value);
  }
  const placeholder = safeStyle(style.placeholder).color;
  if (placeholder) input.style.setProperty('--placeholder-color', placeholder);
}

function changed(): void {
  reformat();
  const state = stateOf(input.value);
  render(state);
  if (field === 'cardNumber') {
    const next = brandOf(digitsOf(input.value));
    if (next !== brand) {
      brand = next;
      siblings.postMessage({ type: 'brand', brand } satisfies SiblingMessage);
    }
  }
  const error = shownError(state);
  const event = {
    empty: state.empty,
    complete: state.complete,
    valid: state.valid,
    ...(field === 'cardNumber' ? { brand } : {}),
    ...(error ? { error: { message: error } } : {}),
  };
  const key = JSON.stringify(event);
  if (key === lastSent) return;
  lastSent = key;
  send({ type: 'change', ...event });
}

function resized(): void {
  send({ type: 'resize', height: Math.ceil(input.getBoundingClientRect().height) });
}

function collect(fields: FieldType[]): Promise<Map<FieldType, { value: string; state: FieldState }>> {
  const id = Math.random().toString(36).slice(2);
  const found = new Map<FieldType, { value: string; state: FieldState }>();
  return new Promise((resolve) => {
    const timer = setTimeout(done, 2000);
    function done(): void {
      clearTimeout(timer);
      siblings.removeEventListener('message', onValue);
      resolve(found);
    }
    function onValue(event: MessageEvent<SiblingMessage>): void {
      const m = event.data;
      if (m.type !== 'value' || m.id !== id || !m.field || !fields.includes(m.field)) return;
      found.set(m.field, { value: m.value ?? '', state: m.state! });
      if (found.size === fields.length) done();
    }
    siblings.addEventListener('message', onValue);
    siblings.postMessage({ type: 'collect', id } satisfies SiblingMessage);
    if (!fields.length) done();
  });
}

const LABELS: Record<FieldType, string> = {
  cardNumber: 'card number',
  cardExpiry: 'expiry date',
  cardCvc: 'security code',
  cardholderName: 'cardholder name',
};

/** The card number's frame turns the card into a nonce: the other frames hand it their values. */
async function tokenize(m: PageMessage): Promise<Record<string, unknown>> {
  if (!clientToken) {
    const message = tokenRefused
      ? 'The client token is of another merchant than the one these card fields were opened for'
      : 'The card fields have no client token yet';
    return { error: { code: tokenRefused ? 'AUTH_INSUFFICIENT_SCOPE' : 'AUTH_MISSING', message, status: 0 } };
  }
  const mounted = (m.fields ?? []).filter((f) => f !== 'cardNumber' && f in LABELS);
  siblings.postMessage({ type: 'show-errors' } satisfies SiblingMessage);
  touched = true;
  changed();
  const values = await collect(mounted);
  values.set('cardNumber', { value: input.value, state: stateOf(input.value) });
  const required: FieldType[] = ['cardNumber', 'cardExpiry', ...mounted.filter((f) => f !== 'cardExpiry')];
  for (const f of required) {
    const entry = values.get(f);
    if (!entry) {
      const message = `The ${LABELS[f]} field is not ready; mount it before paying`;
      return { error: { code: 'FIELD_NOT_READY', message, field: f, status: 0 } };
    }
    if (!entry.state.valid) {
      return { error: { code: 'VALIDATION_FAILED', message: entry.state.error, field: f, status: 0 } };
    }
  }
  const number = digitsOf(input.value);
  const expiry = parseExpiry(values.get('cardExpiry')!.value)!;
  const cvv = values.get('cardCvc')?.value;
  const name = values.get('cardholderName')?.value.trim() || m.cardholderName?.trim();
  const cardData = {
    cardNumber: number,
    expiryMonth: expiry.month,
    expiryYear: expiry.year,
    ...(cvv ? { cvv: digitsOf(cvv) } : {}),
    ...(name ? { cardholderName: name } : {}),
  };
  let response: Response;
  try {
    response = await fetch('/v1/sdk/nonce', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${clientToken}`,
        // The gateway refuses the nonce too when the token is of another merchant than this frame's.
        'x-payments-field-merchant': frameMerchant,
      },
      body: JSON.stringify({ cardData }),
      credentials: 'omit',
    });
  } catch {
    const message = 'The payment service could not be reached. Check your connection and try again.';
    return { error: { code: 'NETWORK_ERROR', message, status: 0 } };
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = data?.error ?? {};
    const error = { code: e.code ?? 'ERROR', message: e.message ?? 'The request failed', param: e.param };
    return { error: { ...error, status: response.status } };
  }
  const card = { brand, last4: number.slice(-4), expiryMonth: expiry.month, expiryYear: expiry.year };
  return { nonce: data.nonce, expiresAt: data.expiresAt, card };
}

function onPageMessage(event: MessageEvent<PageMessage>): void {
  if (event.origin !== pageOrigin || event.source !== window.parent) return;
  const m = event.data;
  if (!m || typeof m !== 'object' || m.channel !== channelId) return;
  switch (m.type) {
    case 'init':
    case 'update':
      if (m.style) style = m.style;
      if (typeof m.placeholder === 'string') input.placeholder = m.placeholder;
      if (typeof m.label === 'string' && m.label) {
        (document.getElementById('label') as HTMLElement).textContent = m.label;
        document.title = m.label;
      }
      takeToken(m);
      render(stateOf(input.value));
      resized();
      lastSent = '';
      changed();
      break;
    case 'focus':
      input.focus();
      break;
    case 'clear':
      input.value = '';
      touched = false;
      changed();
      break;
    case 'tokenize':
      if (field !== 'cardNumber' || !m.requestId) return;
      void tokenize(m).then((result) => send({ type: 'tokenized', requestId: m.requestId, ...result }));
      break;
  }
}

function onSiblingMessage(event: MessageEvent<SiblingMessage>): void {
  const m = event.data;
  if (m.type === 'brand' && field === 'cardCvc') {
    brand = m.brand ?? 'unknown';
    input.maxLength = brand === 'unknown' ? 4 : cvcLength(brand);
    changed();
  } else if (m.type === 'show-errors') {
    touched = true;
    changed();
  } else if (m.type === 'collect' && m.id) {
    const reply: SiblingMessage = { type: 'value', id: m.id, field, value: input.value, state: stateOf(input.value) };
    siblings.postMessage(reply);
  }
}

if (embeddedAsAllowed()) {
  window.addEventListener('message', onPageMessage);
  siblings.addEventListener('message', onSiblingMessage);
  input.addEventListener('input', changed);
  input.addEventListener('focus', () => {
    if (focused) return;
    focused = true;
    render(stateOf(input.value));
    send({ type: 'focus' });
  });
  // Focus leaving the frame for another frame or the page blurs the window; the input may not hear of it.
  const blurred = (): void => {
    if (!focused) return;
    focused = false;
    if (input.value) touched = true;
    changed();
    render(stateOf(input.value));
    send({ type: 'blur' });
  };
  input.addEventListener('blur', blurred);
  window.addEventListener('blur', blurred);
  new ResizeObserver(resized).observe(input);
  send({ type: 'ready' });
} else {
  input.disabled = true;
}
