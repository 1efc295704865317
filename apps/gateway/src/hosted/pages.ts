import { SessionView } from '@app/contracts';
import { escapeHtml, formatAmount, layout } from './html';

/** The challenge page's script: the browser source clients/browser/src/challenge.ts. */
const CHALLENGE_SCRIPT = '/v1/3ds/assets/challenge.js';

function summary(view: SessionView): string {
  return `<dl>
<dt>Merchant</dt><dd>${escapeHtml(view.merchantCode)}</dd>
<dt>Amount</dt><dd>${escapeHtml(formatAmount(view.amount))}</dd>
${view.maskedCard ? `<dt>Card</dt><dd>${escapeHtml(view.maskedCard)}</dd>` : ''}
<dt>Valid until</dt><dd>${escapeHtml(view.expiresAt)}</dd>
</dl>`;
}

/**
 * The 3DS challenge page. The built-in acquirer is simulated in both environments, so its issuer
 * challenge is simulated too: the cardholder picks the outcome. A real acquirer would frame its ACS here.
 */
export function challengePage(view: SessionView, nonce: string): string {
  const title = 'Verify your payment';
  let state: string;
  if (view.expired) state = '<p>This verification has expired. Return to the merchant and try again.</p>';
  else if (view.status !== 'pending') state = `<p id="result">Verification finished: ${escapeHtml(view.status)}.</p>`;
  else
    state = `<p class="note">Simulated issuer authentication (${escapeHtml(view.environment)})</p>
<p><button class="ok" data-outcome="authenticated">Authenticate</button><button class="ko" data-outcome="failed">Fail</button></p>
<p id="result" role="status"></p>`;
  const live = view.status === 'pending' && !view.expired;
  return layout(
    title,
    `<div id="challenge" data-session-id="${escapeHtml(view.sessionId)}"><h1>${title}</h1>${summary(view)}${state}</div>`,
    live ? CHALLENGE_SCRIPT : '',
    nonce,
  );
}

/** Payment instructions of a pending APM: the Pix code, the boleto line or the ACH authorization. */
export function apmPage(view: SessionView): string {
  const apm = view.apm ?? { expiresAt: view.expiresAt };
  let body: string;
  switch (view.actionType) {
    case 'qr_code':
      body = `<h1>Pay with Pix</h1>${summary(view)}<p>Scan the QR code in your bank app or paste this code:</p><p class="code">${escapeHtml(apm.qrCode)}</p>`;
      break;
    case 'barcode':
      body = `<h1>Pay with boleto</h1>${summary(view)}<p>Pay this boleto at a bank, lottery outlet or in your bank app:</p><p class="code">${escapeHtml(apm.barcode)}</p>`;
      break;
    default:
      body = `<h1>Authorize the bank debit</h1>${summary(view)}<p>The debit is authorized; your bank settles it in a few days. You can return to the merchant.</p>`;
  }
  const status = view.status === 'open' ? '' : `<p class="note">Status: ${escapeHtml(view.status)}</p>`;
  return layout('Payment instructions', body + status);
}

/**
 * A provider's own 3DS page, reached through our hosted page: a form the browser posts there at once (with a
 * button where scripts do not run). `nonce` is the response's script nonce.
 */
export function providerChallengePage(
  view: SessionView,
  action: { url: string; data?: Record<string, string> },
  nonce: string,
): string {
  const fields = Object.entries(action.data ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `${layout(
    'Verify your payment',
    `<h1>Verify your payment</h1>${summary(view)}<form id="provider" method="post" action="${escapeHtml(action.url)}">${fields}<button class="ok" type="submit">Continue to your bank</button></form>`,
  ).replace('</body>', `<script nonce="${nonce}">document.getElementById('provider').submit();</script></body>`)}`;
}

/** Where the shopper lands back from the provider's 3DS page: the payment's outcome. */
export function challengeReturnPage(status: string): string {
  const done = status === 'captured' || status === 'authorized';
  const text = done
    ? 'Your payment is verified. You can return to the merchant.'
    : status === 'pending_3ds'
      ? 'Your payment is still being verified. You can return to the merchant.'
      : 'Your payment could not be verified. Return to the merchant to try again.';
  return layout(
    'Payment verification',
    `<h1>Payment verification</h1><p id="result" data-status="${escapeHtml(status)}">${escapeHtml(text)}</p>`,
  );
}
