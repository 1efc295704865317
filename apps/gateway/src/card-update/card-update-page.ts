import { escapeHtml, formatMoney, pageHead } from '../hosted/html';
import { CHECKOUT_ASSETS } from '../checkout/checkout-page';

export const CARD_UPDATE_SCRIPT = '/checkout/assets/card-update.js';

/** What the customer sees on an open link: whose subscription, which plan, what is due now. */
export interface CardUpdatePageView {
  merchantCode: string;
  sandbox: boolean;
  planName: string;
  /** The open invoice's amount, or null when nothing is due (a card about to expire). */
  amountDue: { value: number; currency: string; exponent: number } | null;
  cardBrand: string | null;
}

function document(title: string, main: string, scripts: boolean): string {
  return `${pageHead}
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${CHECKOUT_ASSETS.css}">
${scripts ? `<script src="${CHECKOUT_ASSETS.sdk}" defer></script>\n<script src="${CARD_UPDATE_SCRIPT}" defer></script>` : ''}
</head>
<body>
${main}
<footer>Secure card update · Powered by Payments Platform</footer>
</body>
</html>`;
}

function header(merchantCode: string, sandbox: boolean, title: string, detail: string): string {
  const badge = sandbox ? '<span class="badge">Test mode</span>' : '';
  return `<header class="head">
<p class="merchant"><span>${escapeHtml(merchantCode)}</span>${badge}</p>
<h1>${escapeHtml(title)}</h1>
${detail}
</header>`;
}

/**
 * The hosted card-update page: the card inputs are the SDK's framed card fields (the PAN never reaches this
 * page), the token in the URL is the only credential.
 */
export function cardUpdatePage(view: CardUpdatePageView, token: string, clientToken: string): string {
  const due = view.amountDue ? formatMoney(view.amountDue) : null;
  const detail = due
    ? `<p class="description">Subscription: ${escapeHtml(view.planName)}</p><p class="price" id="amount-due">${escapeHtml(due)} <small>due now</small></p>`
    : `<p class="description">Subscription: ${escapeHtml(view.planName)}</p>`;
  const button = due ? `Update card and pay ${due}` : 'Update card';
  const main = `<main class="card" id="card-update" data-token="${escapeHtml(token)}" data-client-token="${escapeHtml(clientToken)}">
${header(view.merchantCode, view.sandbox, 'Update your card', detail)}
<section class="body" id="pay-section">
<form id="pay-form" novalidate>
<div id="form-error" class="alert error" role="alert" hidden></div>
<div class="field">
<label for="cardholder">Name on card</label>
<input id="cardholder" name="cardholder" autocomplete="cc-name" required>
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
<button type="submit" id="pay-button" data-label="${escapeHtml(button)}">${escapeHtml(button)}</button>
<p class="secure"><span>Card details go straight to the payment gateway, never to ${escapeHtml(view.merchantCode)}.</span></p>
</form>
</section>
<section class="result" id="success" hidden>
<h2 tabindex="-1" id="success-title">Your card is updated</h2>
<p id="success-detail" role="status"></p>
</section>
</main>`;
  return document(`Update your card · ${view.merchantCode}`, main, true);
}

const CLOSED: Record<string, string> = {
  used: 'This link has already been used: your card was updated.',
  expired: 'This link has expired.',
};

/** A used or expired link, or an unknown token. */
export function closedCardUpdatePage(state: 'used' | 'expired' | 'unknown'): string {
  const main = `<main class="card"><section class="result" id="unavailable">
<h2>This link is no longer available</h2>
<p>${escapeHtml(CLOSED[state] ?? 'Check the link you were given.')}</p>
<p>Ask the merchant for a new link if your card still needs updating.</p>
</section></main>`;
  return document('Link no longer available', main, false);
}
