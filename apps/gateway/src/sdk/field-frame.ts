import type { FastifyReply } from 'fastify';
import { escapeHtml, pageHead, privatePageHeaders } from '../hosted/html';

export const FIELD_TYPES = ['cardNumber', 'cardExpiry', 'cardCvc', 'cardholderName'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** What the input of each field is, for the browser's autofill, keyboards and screen readers. */
const INPUTS: Record<FieldType, { label: string; name: string; autocomplete: string; numeric: boolean }> = {
  cardNumber: { label: 'Card number', name: 'cardnumber', autocomplete: 'cc-number', numeric: true },
  cardExpiry: { label: 'Expiry date', name: 'exp-date', autocomplete: 'cc-exp', numeric: true },
  cardCvc: { label: 'Security code', name: 'cvc', autocomplete: 'cc-csc', numeric: true },
  cardholderName: { label: 'Name on card', name: 'ccname', autocomplete: 'cc-name', numeric: false },
};

export interface FrameQuery {
  field: FieldType;
  /** The embedding page's origin: the only one the frame talks to and the only one allowed to frame it. */
  origin: string;
  /** The mount's id: the frames of one mount share it. */
  channel: string;
  /**
   * The merchant whose registered origin may embed the frame: the frame makes nonces for this merchant only,
   * whatever client token its page hands it.
   */
  merchant: string;
}

/** The page of one card field (served at /v1/sdk/fields/frame); its script is the browser's field.ts. */
export function fieldFramePage(q: FrameQuery): string {
  const input = INPUTS[q.field];
  const numeric = input.numeric ? ' inputmode="numeric"' : '';
  return `${pageHead}
<title>${escapeHtml(input.label)}</title>
<link rel="stylesheet" href="/v1/sdk/fields/field.css">
<script type="module" src="/v1/sdk/fields/field.js"></script>
</head>
<body>
<main id="field" data-field="${q.field}" data-origin="${escapeHtml(q.origin)}" data-channel="${escapeHtml(q.channel)}" data-merchant="${escapeHtml(q.merchant)}">
<label id="label" for="input" class="visually-hidden">${escapeHtml(input.label)}</label>
<input id="input" name="${input.name}" autocomplete="${input.autocomplete}"${numeric} aria-describedby="error" spellcheck="false" autocapitalize="off" autocorrect="off">
<span id="error" class="visually-hidden" aria-live="polite"></span>
</main>
</body>
</html>`;
}

/**
 * A field frame's headers: only this gateway's own script and style, nothing cached, and only the one page
 * origin the merchant registered may frame it (`frame-ancestors`).
 */
export function fieldFrameHeaders(reply: FastifyReply, frameAncestor: string): void {
  privatePageHeaders(
    reply,
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
      `base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestor}`,
  );
}
