import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Page } from 'playwright-core';

/** The pinned SDK's URL and Subresource Integrity value, as docs/card-fields.md publishes them. */
export function publishedSdk(): { path: string; integrity: string } {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'card-fields.md'), 'utf8');
  const match =
    /src="https:\/\/pay\.example\.com(\/v1\/sdk\/v[\d.]+\/sdk\.js)"\s+integrity="(sha384-[A-Za-z0-9+/=]+)"/.exec(doc);
  if (!match) throw new Error('docs/card-fields.md publishes no pinned SDK <script> with integrity');
  return { path: match[1], integrity: match[2] };
}

/**
 * A merchant's shop page (its own origin): the pinned SDK with its integrity hash, containers for the four
 * fields, a Pay button that turns the fields into a nonce. It records every field event and every message
 * the page receives, so a test can show that nothing card-like reaches it.
 */
export function shopPage(gateway: string): string {
  const sdk = publishedSdk();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plant shop</title>
<script src="${gateway}${sdk.path}" integrity="${sdk.integrity}" crossorigin="anonymous"></script>
<style>
body{font:15px/1.4 Georgia,serif;background:#f7f3ea;color:#2b2b2b;margin:0;padding:32px}
form{max-width:380px;background:#fff;padding:24px;border-radius:10px;box-shadow:0 2px 8px #0001}
label{display:block;font-size:13px;font-weight:bold;margin:0 0 4px;cursor:pointer}
.box{border:1px solid #c9c2b0;border-radius:6px;padding:10px 12px;margin:0 0 14px;background:#fffdf8}
.row{display:flex;gap:12px}.row>div{flex:1}
.payments-field--focus{border-color:#2e7d32;box-shadow:0 0 0 3px #2e7d3233}
.payments-field--invalid{border-color:#c2185b}
.error{color:#c2185b;font-size:13px;min-height:18px;margin:-10px 0 8px}
button{width:100%;padding:12px;font:inherit;font-weight:bold;color:#fff;background:#2e7d32;border:0;border-radius:6px}
</style></head>
<body><h1>Plant shop</h1>
<form id="pay-form" novalidate>
<label id="number-label">Card number</label><div id="number" class="box"></div>
<div class="row"><div><label>Expiry</label><div id="expiry" class="box"></div></div>
<div><label>CVC</label><div id="cvc" class="box"></div></div></div>
<label>Name on card</label><div id="name" class="box"></div>
<p class="error" id="field-error" role="alert"></p>
<button id="pay" type="submit">Pay</button>
<p id="result" role="status"></p>
</form>
<script>
window.events = [];
window.received = [];
window.addEventListener('message', (e) => window.received.push(JSON.stringify(e.data)));
window.mount = (token, style, only) => {
  window.sdk = PaymentsSDK.init({ clientToken: token });
  window.fields = window.sdk.fields({ style });
  const all = [['cardNumber', '#number'], ['cardExpiry', '#expiry'], ['cardCvc', '#cvc'], ['cardholderName', '#name']];
  return Promise.all(all.filter(([t]) => !only || only.includes(t)).map(([type, selector]) => {
    const field = window.fields.create(type);
    for (const name of ['change', 'focus', 'blur', 'ready']) {
      field.on(name, (e) => {
        window.events.push({ name, ...e });
        if (name === 'change') document.getElementById('field-error').textContent = e.error ? e.error.message : '';
      });
    }
    return field.mount(selector);
  })).then(() => true);
};
document.getElementById('number-label').addEventListener('click', () => window.fields.get('cardNumber').focus());
document.getElementById('pay-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  try {
    const r = await window.fields.createNonce();
    window.nonce = r;
    document.getElementById('result').textContent = 'Nonce for ' + r.card.brand + ' ending ' + r.card.last4;
  } catch (err) {
    document.getElementById('result').textContent = err.message;
  }
});
</script></body></html>`;
}

/** The input inside a field's frame, found by its accessible name as a screen reader would. */
export const fieldInput = (page: Page, container: string, label: string) =>
  page.frameLocator(`#${container} iframe`).getByLabel(label);
