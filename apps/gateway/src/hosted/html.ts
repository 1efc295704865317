import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Minor units to a decimal string without floating point: (1050, 2) → "10.50". */
export function formatAmount(a: { currency: string; value: number; exponent: number }): string {
  const digits = String(a.value).padStart(a.exponent + 1, '0');
  const units = a.exponent ? `${digits.slice(0, -a.exponent)}.${digits.slice(-a.exponent)}` : digits;
  return `${units} ${a.currency}`;
}

/**
 * Minor units as a payer reads them ("$10.50", "¥500"): Intl formats the exact decimal string, never a float.
 */
export function formatMoney(a: { currency: string; value: number; exponent: number }): string {
  const decimal = formatAmount(a).split(' ')[0];
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: a.currency,
      minimumFractionDigits: a.exponent,
      maximumFractionDigits: a.exponent,
    }).format(decimal as unknown as number);
  } catch {
    return formatAmount(a);
  }
}

/**
 * Headers of every hosted page: the URL carries a session credential, so it must not leak through the
 * Referer or a cache; scripts run only with this response's nonce; the SDK may frame the page.
 */
export function htmlHeaders(reply: FastifyReply): string {
  const nonce = randomBytes(16).toString('base64');
  privatePageHeaders(
    reply,
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; ` +
      `base-uri 'none'; form-action 'none'`,
  );
  return nonce;
}

/**
 * Headers of the hosted page that sends the shopper on to a provider's 3DS page: as htmlHeaders, but its form
 * may post to that provider's origin only.
 */
export function providerPageHeaders(reply: FastifyReply, providerUrl: string): string {
  const nonce = randomBytes(16).toString('base64');
  privatePageHeaders(
    reply,
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; ` +
      `form-action ${new URL(providerUrl).origin}`,
  );
  return nonce;
}

/** An HTML page never cached and never named in a Referer, under its own Content-Security-Policy. */
export function privatePageHeaders(reply: FastifyReply, contentSecurityPolicy: string): void {
  void reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', contentSecurityPolicy);
}

/** How every page of the gateway starts: its language, encoding, viewport, and never indexed. */
export const pageHead = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">`;

/** A hosted page; `scriptSrc` names a script of this gateway, run under the response's nonce. */
export function layout(title: string, body: string, scriptSrc = '', nonce = ''): string {
  return `${pageHead}
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:40px 16px;padding:28px;border-radius:10px;max-width:420px;width:100%;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin:0 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 20px}dt{color:#666}dd{margin:0}
button{font-size:1rem;padding:10px 18px;border-radius:6px;border:0;cursor:pointer;margin-right:8px}
.ok{background:#1a7f37;color:#fff}.ko{background:#cf222e;color:#fff}
.note{color:#666;font-size:.85rem}.code{font-family:monospace;word-break:break-all;background:#f4f5f7;padding:8px;border-radius:6px}
</style>
</head>
<body><main>
${body}
</main>${scriptSrc ? `<script nonce="${nonce}" src="${escapeHtml(scriptSrc)}"></script>` : ''}</body>
</html>`;
}
