/**
 * The simulated issuer's 3DS challenge page (served at /v1/3ds/assets/challenge.js). The cardholder picks
 * the outcome; the page records it and tells the page that framed or opened it, so the SDK can resume.
 * The message goes to the framing page's exact origin when the browser names it.
 */
(() => {
  const root = document.getElementById('challenge');
  if (!root) return;
  const sessionId = root.dataset.sessionId;
  const result = document.getElementById('result') as HTMLElement;
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-outcome]'));

  function tell(message: object): void {
    const ancestors = window.location.ancestorOrigins;
    if (window.parent !== window)
      window.parent.postMessage(message, ancestors && ancestors.length ? ancestors[0] : '*');
    if (window.opener) (window.opener as Window).postMessage(message, '*');
  }

  for (const b of buttons) {
    b.addEventListener('click', async () => {
      for (const x of buttons) x.disabled = true;
      const r = await fetch(window.location.pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: b.dataset.outcome }),
      });
      const body = await r.json().catch(() => ({}));
      const outcome = r.ok ? body.outcome : 'error';
      result.textContent = r.ok
        ? `Verification finished: ${outcome}. You can return to the merchant.`
        : (body.error && body.error.message) || 'Something went wrong';
      tell({ type: 'threeds_challenge_complete', sessionId, outcome });
    });
  }
})();
