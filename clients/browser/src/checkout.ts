/**
 * The hosted checkout's script (served at /checkout/assets/checkout.js, after the SDK). It reads the link
 * from the page's data attributes, mounts the SDK's card fields (the same frames a merchant's own page
 * uses), makes a nonce, pays the link through POST /v1/checkout/{id}/pay, runs a 3DS challenge through the
 * SDK (resuming through the link's own route), and shows the result; on success it returns the payer to the
 * merchant's returnUrl.
 */
(() => {
  const root = document.getElementById('checkout');
  if (!root || !window.PaymentsSDK) return;
  const d = root.dataset as Record<string, string>;
  const sdk = window.PaymentsSDK.init({ clientToken: d.clientToken });
  const $ = <T extends HTMLElement = HTMLElement>(id: string): T | null => document.getElementById(id) as T | null;
  const form = $<HTMLFormElement>('pay-form')!;
  const button = $<HTMLButtonElement>('pay-button')!;
  const errorBox = $('form-error')!;
  const exponent = Number(d.exponent || 0);

  // The page's own look (checkout.css): its text colour, and its error colour for a wrong value.
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
    // The visible label names a frame, which a <label for> cannot: a click focuses the field instead.
    $(`${id}-label`)?.addEventListener('click', () => field.focus());
  }

  function showError(message: string, field?: HTMLElement | PaymentsSDK.Field): void {
    errorBox.textContent = message;
    errorBox.hidden = false;
    for (const input of Array.from(form.querySelectorAll('input'))) input.removeAttribute('aria-invalid');
    if (field instanceof HTMLElement) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-errormessage', 'form-error');
    }
    field?.focus();
  }

  function busy(on: boolean, label?: string): void {
    button.disabled = on;
    button.textContent = on ? label || 'Processing…' : button.dataset.label || '';
  }

  /** "12.5" → 1250 minor units, exactly (no floating point); null when it is not an amount. */
  function minorUnits(text: string): number | null {
    const m = /^(\d+)(?:\.(\d*))?$/.exec(String(text).trim().replace(/,/g, ''));
    if (!m) return null;
    let fraction = m[2] || '';
    if (fraction.length > exponent) return null;
    while (fraction.length < exponent) fraction += '0';
    const value = Number(m[1] + fraction);
    return Number.isSafeInteger(value) ? value : null;
  }

  function formatted(minor: number): string {
    let s = String(minor);
    while (s.length <= exponent) s = `0${s}`;
    return exponent ? `${s.slice(0, -exponent)}.${s.slice(-exponent)}` : s;
  }

  // A customer_entered link's button names the amount as the payer types it.
  const amountField = $<HTMLInputElement>('amount');
  amountField?.addEventListener('input', () => {
    const v = minorUnits(amountField.value);
    const ok = v !== null && v >= Number(d.min) && v <= Number(d.max);
    button.dataset.label = ok ? `Pay ${formatted(v)} ${d.currency}` : 'Pay';
    if (!button.disabled) button.textContent = button.dataset.label;
  });

  type Read = { error: string; field: HTMLElement } | { body: Record<string, unknown>; name: string };

  function read(): Read {
    const body: Record<string, unknown> = {};
    if (amountField) {
      const value = minorUnits(amountField.value);
      const min = Number(d.min);
      const max = Number(d.max);
      if (value === null) {
        const decimals = exponent ? ` (up to ${exponent} decimals)` : '';
        return { error: `Enter an amount like ${formatted(min)}${decimals}`, field: amountField };
      }
      if (value < min || value > max) {
        const range = `${formatted(min)} and ${formatted(max)} ${d.currency}`;
        return { error: `Enter an amount between ${range}`, field: amountField };
      }
      body.amount = { currency: d.currency, value, exponent };
    }
    const email = $<HTMLInputElement>('email');
    if (email) {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim()))
        return { error: 'Enter a valid email address', field: email };
      body.customerEmail = email.value.trim();
    }
    const cardholder = $<HTMLInputElement>('cardholder')!;
    const name = cardholder.value.trim();
    if (!name) return { error: 'Enter the name on the card', field: cardholder };
    body.customerName = name;
    return { body, name };
  }

  interface Answer {
    outcome: string;
    message?: string;
    returnUrl?: string;
    payment?: {
      amount: { value: number; currency: string };
      paymentCode: string;
      actionRequired: PaymentsSDK.ThreeDsAction;
    };
    subscription?: { status: string };
  }

  async function post(path: string, body: unknown): Promise<Answer> {
    const r = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${d.clientToken}` },
      body: JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      const e = new Error((data.error && data.error.message) || 'The payment could not be completed');
      throw Object.assign(e, { code: data.error && data.error.code, status: r.status });
    }
    return data;
  }

  function subscribed(status?: string): string {
    if (status === 'trialing') return 'Your free trial has started. You can close this page.';
    if (status === 'pending') return 'Your subscription starts on its start date. You can close this page.';
    return 'Your subscription is active. You can close this page.';
  }

  function succeed(result: Answer): void {
    $('pay-section')!.hidden = true;
    $('success')!.hidden = false;
    const payment = result.payment;
    $('success-detail')!.textContent = payment
      ? `Paid ${formatted(payment.amount.value)} ${payment.amount.currency} · receipt ${payment.paymentCode}`
      : subscribed(result.subscription && result.subscription.status);
    $('success-title')!.focus();
    if (result.returnUrl) {
      $('success-redirect')!.hidden = false;
      const to = result.returnUrl;
      setTimeout(() => window.location.assign(to), 1500);
    }
  }

  function explain(e: { code?: string; message?: string; field?: PaymentsSDK.FieldType }): void {
    if (e.code === 'VALIDATION_FAILED' && e.field) {
      showError(e.message || 'Check the card details', fields.get(e.field));
    } else if (e.code === 'INVALID_STATE') {
      showError(`${e.message}. Reload the page to see the link’s status.`);
    } else if (e.code === 'RATE_LIMITED') {
      // Too many declined payments: the server's message says for how long new attempts are paused.
      showError(e.message || 'Too many attempts');
    } else if (e.code === 'PAYMENT_DECLINED') {
      showError('Your card was declined. Try again or use another card.');
    } else {
      showError(e.message || 'Something went wrong. Please try again.');
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    errorBox.hidden = true;
    const input = read();
    if ('error' in input) return showError(input.error, input.field);
    busy(true);
    try {
      const nonce = await fields.createNonce({ cardholderName: input.name });
      input.body.nonce = nonce.nonce;
      let result = await post(`/v1/checkout/${d.linkId}/pay`, input.body);
      if (result.outcome === 'requires_action' && result.payment) {
        busy(true, 'Waiting for your bank…');
        const resumePath = `/v1/checkout/${d.linkId}/resume`;
        result = (await sdk.handleAction(result.payment.actionRequired, { resumePath })) as Answer;
      }
      if (result.outcome === 'succeeded') return succeed(result);
      busy(false);
      showError(result.message || 'The payment could not be processed. No money was taken; please try again.');
    } catch (e) {
      busy(false);
      explain(e as { code?: string; message?: string; field?: PaymentsSDK.FieldType });
    }
  });
})();
