/**
 * Styles reach a card field as data: a few text properties, each accepting only a value of its own kind
 * (a colour, a length, a list of font names). Anything else is dropped, so a style can never carry CSS
 * syntax, a URL or script into the frame. Pure functions, unit-tested on their own.
 */

/** The style layers a page sends (payments-sdk.d.ts: FieldStyle), as untrusted data. */
export type StyleInput = Partial<Record<'base' | 'placeholder' | 'focus' | 'invalid' | 'complete', unknown>>;

const COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\(\s*[-\d.%\s,/]+\)|[a-z]{3,24})$/i;
const LENGTH = /^\d{1,3}(\.\d{1,3})?(px|em|rem|%)$/;

/** The allowed properties, as CSS names, with the values each takes. */
const ALLOWED: Record<string, [string, RegExp]> = {
  color: ['color', COLOR],
  fontFamily: ['font-family', /^[a-z0-9 ,'"-]{1,200}$/i],
  fontSize: ['font-size', LENGTH],
  fontWeight: ['font-weight', /^(normal|bold|lighter|bolder|[1-9]00)$/],
  fontStyle: ['font-style', /^(normal|italic|oblique)$/],
  letterSpacing: ['letter-spacing', /^(normal|-?\d{1,2}(\.\d{1,3})?(px|em|rem))$/],
  lineHeight: ['line-height', /^(normal|\d{1,3}(\.\d{1,3})?(px|em|rem|%)?)$/],
  textAlign: ['text-align', /^(left|right|center|start|end)$/],
};

/** The allowed properties of one style layer, as CSS declarations; unknown names and bad values are dropped. */
export function safeStyle(layer: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!layer || typeof layer !== 'object') return out;
  for (const [name, value] of Object.entries(layer as Record<string, unknown>)) {
    const rule = Object.prototype.hasOwnProperty.call(ALLOWED, name) ? ALLOWED[name] : undefined;
    if (!rule || typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (rule[1].test(trimmed)) out[rule[0]] = trimmed;
  }
  return out;
}
