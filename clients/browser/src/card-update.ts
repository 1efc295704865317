/**
 * The hosted card-update page's script (served at /checkout/assets/card-update.js, after the SDK). It mounts
 * the SDK's card fields, makes a nonce inside them and posts it with the link's token to
 * POST /v1/card-update/{token}; the card number never reaches this page.
 */
(() => {
  const root = document.getElementById('card-update');
  if (!root || !window.PaymentsSDK) return;
  const d = root.dataset as Record<string, string>;
  const sdk = window.PaymentsSDK.init({ clientToken: d.clientToken });
  const $ = <T extends HTMLElement = HTMLElement>(id: string): T | null => document.getElementById(id) as T | null;
  const form = $<HTMLFormElement>('pay-form')!;
  const button = $<HTMLButtonElement>('pay-button')!;
  const errorBox = $('form-error')!;
  const fields = sdk.fields({
    style: { base: { color: '#1a1f36' }, placeholder: { color: '#8792a2' }, invalid: { color: '#c0123c' } },
  });
  const cardFields: [PaymentsSDK.FieldType, string][] = [
    ['cardNumber', 'card-number'],
    ['cardExpiry', 'card-expiry'],
    ['cardCvc', 'card-cvc'],
  ];
  for (const [type, id] of cardFields) {
    const field = fields.create(type);
    void field.mount(`#${id}`);
    $(`${id}-label`)?.addEventListener('click', () => field.focus());
  }

  function showError(message: string, field?: HTMLElement | PaymentsSDK.Field): void {
    errorBox.textContent = message;
    errorBox.hidden = false;
    field?.focus();
  }

  function busy(on: boolean): void {
    button.disabled = on;
    button.textContent = on ? 'Processing…' : button.dataset.label || '';
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    errorBox.hidden = true;
    const cardholder = $<HTMLInputElement>('cardholder')!;
    const name = cardholder.value.trim();
    if (!name) return showError('Enter the name on the card', cardholder);
    busy(true);
    try {
      const nonce = await fields.createNonce({ cardholderName: name });
      const r = await fetch(`/v1/card-update/${encodeURIComponent(d.token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nonce: nonce.nonce }),
      });
      const data = await r.json().catch(() => ({}));
      if (r.ok) {
        $('pay-section')!.hidden = true;
        $('success')!.hidden = false;
        $('success-detail')!.textContent =
          data.subscriptionStatus === 'active'
            ? 'Thank you: your new card is saved and your subscription is active. You can close this page.'
            : 'Thank you: your new card is saved. You can close this page.';
        $('amount-due')?.remove();
        $('success-title')!.focus();
        return;
      }
      busy(false);
      const code = data.error && data.error.code;
      if (code === 'PAYMENT_DECLINED') showError('Your card was declined. Try again or use another card.');
      else if (code === 'INVALID_STATE') showError('This link can no longer be used. Reload the page.');
      else showError((data.error && data.error.message) || 'Something went wrong. Please try again.');
    } catch (e) {
      busy(false);
      const err = e as { message?: string; field?: PaymentsSDK.FieldType };
      showError(err.message || 'Check the card details', err.field ? fields.get(err.field) : undefined);
    }
  });
})();
