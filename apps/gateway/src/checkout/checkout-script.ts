/**
 * The hosted checkout's own script (served at /checkout/assets/checkout.js, after the SDK). It reads the
 * link from the page's data attributes, makes a nonce with the SDK, pays the link through
 * POST /v1/checkout/{id}/pay, runs a 3DS challenge through the SDK (resuming through the link's own route),
 * and shows the result; on success it returns the payer to the merchant's returnUrl.
 */
export const CHECKOUT_SCRIPT = String.raw`(function () {
  'use strict';
  var root = document.getElementById('checkout');
  if (!root || !window.PaymentsSDK) return;
  var d = root.dataset;
  var sdk = window.PaymentsSDK.init({ clientToken: d.clientToken });
  var form = document.getElementById('pay-form');
  var button = document.getElementById('pay-button');
  var errorBox = document.getElementById('form-error');
  var exponent = Number(d.exponent || 0);

  function $(id) { return document.getElementById(id); }

  function showError(message, field) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    var inputs = form.querySelectorAll('input');
    for (var i = 0; i < inputs.length; i++) inputs[i].removeAttribute('aria-invalid');
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-errormessage', 'form-error');
      field.focus();
    }
  }

  function busy(on, label) {
    button.disabled = on;
    button.textContent = on ? label || 'Processing…' : button.dataset.label;
  }

  /** "12.5" → 1250 minor units, exactly (no floating point); null when it is not an amount. */
  function minorUnits(text) {
    var t = String(text).trim().replace(/,/g, '');
    var m = /^(\d+)(?:\.(\d*))?$/.exec(t);
    if (!m) return null;
    var fraction = m[2] || '';
    if (fraction.length > exponent) return null;
    while (fraction.length < exponent) fraction += '0';
    var value = Number(m[1] + fraction);
    return Number.isSafeInteger(value) ? value : null;
  }

  function formatted(minor) {
    var s = String(minor);
    while (s.length <= exponent) s = '0' + s;
    return exponent ? s.slice(0, -exponent) + '.' + s.slice(-exponent) : s;
  }

  // "1234123412341234" → "1234 1234 1234 1234"; "1228" → "12 / 28".
  $('card-number').addEventListener('input', function (e) {
    var v = e.target.value.replace(/\D/g, '').slice(0, 19);
    e.target.value = v.replace(/(\d{4})(?=\d)/g, '$1 ');
  });
  $('card-expiry').addEventListener('input', function (e) {
    var v = e.target.value.replace(/\D/g, '').slice(0, 4);
    e.target.value = v.length > 2 ? v.slice(0, 2) + ' / ' + v.slice(2) : v;
  });

  // A customer_entered link's button names the amount as the payer types it.
  var amountField = $('amount');
  if (amountField) {
    amountField.addEventListener('input', function () {
      var v = minorUnits(amountField.value);
      var ok = v !== null && v >= Number(d.min) && v <= Number(d.max);
      button.dataset.label = ok ? 'Pay ' + formatted(v) + ' ' + d.currency : 'Pay';
      if (!button.disabled) button.textContent = button.dataset.label;
    });
  }

  function read() {
    var body = {};
    var amountInput = $('amount');
    if (amountInput) {
      var value = minorUnits(amountInput.value);
      var min = Number(d.min);
      var max = Number(d.max);
      if (value === null) {
        return { error: 'Enter an amount like ' + formatted(min) + (exponent ? ' (up to ' + exponent + ' decimals)' : ''), field: amountInput };
      }
      if (value < min || value > max) {
        return { error: 'Enter an amount between ' + formatted(min) + ' and ' + formatted(max) + ' ' + d.currency, field: amountInput };
      }
      body.amount = { currency: d.currency, value: value, exponent: exponent };
    }
    var email = $('email');
    if (email) {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim())) return { error: 'Enter a valid email address', field: email };
      body.customerEmail = email.value.trim();
    }
    var name = $('cardholder').value.trim();
    if (!name) return { error: 'Enter the name on the card', field: $('cardholder') };
    body.customerName = name;
    var number = $('card-number').value.replace(/\D/g, '');
    if (number.length < 12) return { error: 'Enter the card number', field: $('card-number') };
    var exp = /^(\d{2})\s*\/?\s*(\d{2})$/.exec($('card-expiry').value.trim());
    if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) return { error: 'Enter the expiry date as MM / YY', field: $('card-expiry') };
    var cvc = $('card-cvc').value.trim();
    if (!/^\d{3,4}$/.test(cvc)) return { error: 'Enter the 3 or 4 digit security code', field: $('card-cvc') };
    var card = { cardNumber: number, expiryMonth: exp[1], expiryYear: exp[2], cvv: cvc, cardholderName: name };
    return { body: body, card: card };
  }

  async function post(path, body) {
    var r = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + d.clientToken },
      body: JSON.stringify(body),
    });
    var data = await r.json().catch(function () { return {}; });
    if (!r.ok) {
      var e = new Error((data.error && data.error.message) || 'The payment could not be completed');
      e.code = data.error && data.error.code;
      e.status = r.status;
      throw e;
    }
    return data;
  }

  function subscribed(status) {
    if (status === 'trialing') return 'Your free trial has started. You can close this page.';
    if (status === 'pending') return 'Your subscription starts on its start date. You can close this page.';
    return 'Your subscription is active. You can close this page.';
  }

  function succeed(result) {
    $('pay-section').hidden = true;
    var ok = $('success');
    ok.hidden = false;
    var payment = result.payment;
    $('success-detail').textContent = payment
      ? 'Paid ' + formatted(payment.amount.value) + ' ' + payment.amount.currency + ' · receipt ' + payment.paymentCode
      : subscribed(result.subscription && result.subscription.status);
    $('success-title').focus();
    if (result.returnUrl) {
      $('success-redirect').hidden = false;
      setTimeout(function () { window.location.assign(result.returnUrl); }, 1500);
    }
  }

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    if (button.disabled) return;
    errorBox.hidden = true;
    var input = read();
    if (input.error) return showError(input.error, input.field);
    busy(true);
    try {
      var nonce = await sdk.createNonce(input.card);
      input.body.nonce = nonce.nonce;
      var result = await post('/v1/checkout/' + d.linkId + '/pay', input.body);
      if (result.outcome === 'requires_action') {
        busy(true, 'Waiting for your bank…');
        result = await sdk.handleAction(result.payment.actionRequired, { resumePath: '/v1/checkout/' + d.linkId + '/resume' });
      }
      if (result.outcome === 'succeeded') return succeed(result);
      busy(false);
      showError(result.message || 'The payment could not be processed. No money was taken; please try again.');
    } catch (e) {
      busy(false);
      if (e.code === 'INVALID_STATE') {
        showError(e.message + '. Reload the page to see the link’s status.');
      } else if (e.code === 'RATE_LIMITED') {
        // Too many declined payments: the server's message says for how long new attempts are paused.
        showError(e.message);
      } else if (e.code === 'PAYMENT_DECLINED') {
        showError('Your card was declined. Try again or use another card.');
      } else {
        showError(e.message || 'Something went wrong. Please try again.');
      }
    }
  });
})();
`;
