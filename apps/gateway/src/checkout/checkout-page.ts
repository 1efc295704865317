import { CheckoutView } from '@app/contracts';
import { escapeHtml, formatMoney, pageHead } from '../hosted/html';

export const CHECKOUT_ASSETS = {
  css: '/checkout/assets/checkout.css',
  script: '/checkout/assets/checkout.js',
  sdk: '/v1/sdk/js',
};

const LOCK = `<svg viewBox="0 0 16 16" aria-hidden="true"><path fill="currentColor" d="M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 13.5v-5A1.5 1.5 0 0 1 3.5 7H4Zm1.5 0h5V5a2.5 2.5 0 0 0-5 0v2Z"/></svg>`;
const CHECK = `<svg viewBox="0 0 56 56" aria-hidden="true"><circle cx="28" cy="28" r="28" fill="#e3f6ea"/><path d="M17 29l7 7 15-16" fill="none" stroke="#1a7f37" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
const INFO = `<svg viewBox="0 0 56 56" aria-hidden="true"><circle cx="28" cy="28" r="28" fill="#eef0f5"/><path d="M28 17v14M28 38v1" fill="none" stroke="#4f566b" stroke-width="4" stroke-linecap="round"/></svg>`;

function document(title: string, main: string, scripts: boolean): string {
  return `${pageHead}
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${CHECKOUT_ASSETS.css}">
${scripts ? `<script src="${CHECKOUT_ASSETS.sdk}" defer></script>\n<script src="${CHECKOUT_ASSETS.script}" defer></script>` : ''}
</head>
<body>
${main}
<footer>Secure checkout · Powered by Payments Platform</footer>
</body>
</html>`;
}

function header(view: CheckoutView, price: string): string {
  const badge = view.environment === 'sandbox' ? '<span class="badge">Test mode</span>' : '';
  return `<header class="head">
<p class="merchant"><span>${escapeHtml(view.merchantCode)}</span>${badge}</p>
<h1>${escapeHtml(view.title ?? (view.type === 'subscription' ? view.plan?.name : undefined) ?? 'Payment')}</h1>
${view.description ? `<p class="description">${escapeHtml(view.description)}</p>` : ''}
${price}
</header>`;
}

const every = (n: number, unit: string): string => (n === 1 ? `per ${unit}` : `every ${n} ${unit}s`);

function priceOf(view: CheckoutView): { headline: string; button: string } {
  if (view.type === 'subscription' && view.plan) {
    const money = formatMoney(view.plan.amount);
    const trial = view.plan.trialPeriodDays
      ? `<p class="description">${view.plan.trialPeriodDays}-day free trial, then ${escapeHtml(money)} ${every(view.plan.intervalCount, view.plan.interval)}.</p>`
      : '';
    return {
      headline: `<p class="price" id="price">${escapeHtml(money)} <small>${escapeHtml(every(view.plan.intervalCount, view.plan.interval))}</small></p>${trial}`,
      button: 'Subscribe',
    };
  }
  if (view.amountMode === 'customer_entered') {
    return { headline: '', button: 'Pay' };
  }
  const money = formatMoney({ ...view.amount!, value: view.amount!.value! });
  return { headline: `<p class="price" id="price">${escapeHtml(money)}</p>`, button: `Pay ${money}` };
}

function amountField(view: CheckoutView): string {
  if (view.amountMode !== 'customer_entered' || !view.amount) return '';
  const bounds = { currency: view.amount.currency, exponent: view.amount.exponent };
  const min = formatMoney({ ...bounds, value: view.amountMin! });
  const max = formatMoney({ ...bounds, value: view.amountMax! });
  const step = view.amount.exponent ? `0.${'0'.repeat(view.amount.exponent - 1)}1` : '1';
  return `<div class="field">
<label for="amount">Amount (${escapeHtml(view.amount.currency)})</label>
<div class="prefix"><span aria-hidden="true">${escapeHtml(view.amount.currency)}</span>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" required aria-describedby="amount-hint" data-step="${step}"></div>
<span class="hint" id="amount-hint">Between ${escapeHtml(min)} and ${escapeHtml(max)}</span>
</div>`;
}

function emailField(view: CheckoutView): string {
  if (view.type !== 'subscription') return '';
  return `<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(view.customerEmail ?? '')}">
</div>`;
}

/**
 * The hosted checkout of an active link: the card inputs are the SDK's card fields (the same frames a
 * merchant's own page mounts), the rest of the form is the page's own.
 */
export function checkoutPage(view: CheckoutView, clientToken: string): string {
  const price = priceOf(view);
  const data = {
    'link-id': view.id,
    'client-token': clientToken,
    type: view.type,
    'amount-mode': view.amountMode,
    currency: view.amount?.currency ?? view.plan?.amount.currency ?? '',
    exponent: String(view.amount?.exponent ?? view.plan?.amount.exponent ?? ''),
    min: String(view.amountMin ?? ''),
    max: String(view.amountMax ?? ''),
    'return-url': view.returnUrl ?? '',
  };
  const attributes = Object.entries(data)
    .map(([k, v]) => `data-${k}="${escapeHtml(v)}"`)
    .join(' ');
  const main = `<main class="card" id="checkout" ${attributes}>
${header(view, price.headline)}
<section class="body" id="pay-section">
<form id="pay-form" novalidate>
<div id="form-error" class="alert error" role="alert" hidden></div>
${amountField(view)}
${emailField(view)}
<div class="field">
<label for="cardholder">Name on card</label>
<input id="cardholder" name="cardholder" autocomplete="cc-name" required value="${escapeHtml(view.customerName ?? '')}">
</div>
<div class="field">
<label id="card-number-label">Card number</label>
<div id="card-number" class="input-frame"></div>
</div>
<div class="row">
<div class="field">
<label id="card-expiry-label">Expiry date</label>
<div id="card-expiry" class="input-frame"></div>
</div>
<div class="field">
<label id="card-cvc-label">Security code</label>
<div id="card-cvc" class="input-frame"></div>
</div>
</div>
<button type="submit" id="pay-button" data-label="${escapeHtml(price.button)}">${escapeHtml(price.button)}</button>
<p class="secure">${LOCK}<span>Card details go straight to the payment gateway, never to the merchant.</span></p>
</form>
</section>
<section class="result" id="success" hidden>
${CHECK}
<h2 tabindex="-1" id="success-title">${view.type === 'subscription' ? 'You’re subscribed' : 'Payment successful'}</h2>
<p id="success-detail" role="status"></p>
<p id="success-redirect" hidden>Taking you back to ${escapeHtml(view.merchantCode)}…</p>
</section>
</main>`;
  return document(`${view.title ?? 'Checkout'} · ${view.merchantCode}`, main, true);
}

const CLOSED_REASON: Record<string, string> = {
  expired: 'This payment link has expired.',
  cancelled: 'The merchant has cancelled this payment link.',
  used: 'This payment link has already been used.',
};

/** An expired, cancelled or used link: nothing to pay here. */
export function unavailablePage(view: CheckoutView): string {
  const main = `<main class="card">
${header(view, '')}
<section class="result" id="unavailable">
${INFO}
<h2>This link is no longer available</h2>
<p>${escapeHtml(CLOSED_REASON[view.status] ?? 'It cannot take payments.')}</p>
<p>Contact ${escapeHtml(view.merchantCode)} if you still need to pay.</p>
</section>
</main>`;
  return document('Link no longer available', main, false);
}

/** An unknown (or tampered) link id. */
export function notFoundPage(): string {
  const main = `<main class="card"><section class="result" id="not-found">
${INFO}
<h2>Payment link not found</h2>
<p>Check the link you were given, or contact the merchant who sent it.</p>
</section></main>`;
  return document('Payment link not found', main, false);
}
