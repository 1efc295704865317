/**
 * The browser SDK served at GET /v1/sdk/js (docs/api.md). Plain ES2017, no dependencies, no run-time
 * downloads: `PaymentsSDK.init({clientToken})` answers an object whose `createNonce(card)` posts the card to
 * this gateway's /v1/sdk/nonce (never to the merchant) and whose `handleAction(actionRequired)` runs the 3DS
 * challenge in a framed dialog and then resumes. It styles through the CSSOM only, so it works under a
 * strict Content-Security-Policy without 'unsafe-inline'.
 */
export const SDK_SCRIPT = String.raw`(function () {
  'use strict';
  var current = document.currentScript;
  var BASE = current && current.src ? new URL(current.src).origin : window.location.origin;

  function SdkError(message, status, code, param) {
    var e = new Error(message);
    e.name = 'PaymentsSDKError';
    e.status = status;
    e.code = code;
    e.param = param;
    return e;
  }

  async function call(path, token, body) {
    var response;
    try {
      response = await fetch(BASE + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
        body: JSON.stringify(body),
        credentials: 'omit',
      });
    } catch (e) {
      throw SdkError('The payment service could not be reached. Check your connection and try again.', 0, 'NETWORK_ERROR');
    }
    var data = await response.json().catch(function () { return {}; });
    if (!response.ok) {
      var err = (data && data.error) || {};
      throw SdkError(err.message || 'The request failed', response.status, err.code || 'ERROR', err.param);
    }
    return data;
  }

  function digits(value) {
    return String(value == null ? '' : value).replace(/[\s-]/g, '');
  }

  /** Accepts "MM", "YY" or "YYYY"; answers the "MM" and "YYYY" strings the nonce route takes. */
  function expiry(month, year) {
    var m = digits(month);
    var y = digits(year);
    if (m.length === 1) m = '0' + m;
    if (y.length === 2) y = '20' + y;
    return { expiryMonth: m, expiryYear: y };
  }

  function style(el, rules) {
    for (var k in rules) el.style[k] = rules[k];
    return el;
  }

  /** Shows the challenge page framed in a modal dialog and waits for its outcome message. */
  function challenge(action) {
    return new Promise(function (resolve) {
      var previous = document.activeElement;
      var overlay = style(document.createElement('div'), {
        position: 'fixed', inset: '0', background: 'rgba(15, 23, 42, 0.55)', display: 'flex',
        alignItems: 'center', justifyContent: 'center', zIndex: '2147483647', padding: '16px',
      });
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', 'Verify your payment with your bank');
      overlay.setAttribute('data-payments-sdk', 'challenge');
      var frame = style(document.createElement('iframe'), {
        width: '100%', maxWidth: '440px', height: '460px', maxHeight: '90vh', border: '0',
        borderRadius: '12px', background: '#fff', boxShadow: '0 20px 50px rgba(0, 0, 0, 0.3)',
      });
      frame.title = 'Payment verification';
      frame.src = action.url;
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
      frame.focus();
      function onMessage(event) {
        var m = event.data;
        if (event.origin !== new URL(action.url).origin || !m || m.type !== 'threeds_challenge_complete') return;
        if (m.sessionId !== action.sessionId) return;
        window.removeEventListener('message', onMessage);
        overlay.remove();
        if (previous && previous.focus) previous.focus();
        resolve(m.outcome);
      }
      window.addEventListener('message', onMessage);
    });
  }

  function init(options) {
    if (!options || typeof options.clientToken !== 'string' || !options.clientToken) {
      throw SdkError('PaymentsSDK.init needs { clientToken } from your server (POST /v1/sdk/session)', 0, 'CONFIG');
    }
    var token = options.clientToken;
    return {
      /** card: { cardNumber, expiryMonth, expiryYear, cvv, cardholderName }; answers { nonce, expiresAt }. */
      createNonce: function (card) {
        var data = { cardNumber: digits(card.cardNumber) };
        var exp = expiry(card.expiryMonth, card.expiryYear);
        data.expiryMonth = exp.expiryMonth;
        data.expiryYear = exp.expiryYear;
        if (card.cvv) data.cvv = digits(card.cvv);
        if (card.cardholderName) data.cardholderName = String(card.cardholderName).trim();
        return call('/v1/sdk/nonce', token, { cardData: data });
      },
      /**
       * Runs a payment's actionRequired (a 3DS challenge), then resumes it: by default through
       * POST /v1/payment/resume (answers the final Payment); options.resumePath names another resume route.
       */
      handleAction: async function (action, opts) {
        if (!action || action.type !== 'threeds_challenge') {
          throw SdkError('Only threeds_challenge actions run in the browser', 0, 'UNSUPPORTED_ACTION');
        }
        await challenge(action);
        var path = (opts && opts.resumePath) || '/v1/payment/resume';
        return call(path, token, { sessionId: action.sessionId });
      },
    };
  }

  window.PaymentsSDK = { init: init, version: '1.0.0' };
})();
`;
