/**
 * The X-Ignored-Fields header value: the ignored field paths, each percent-encoded (UTF-8 bytes outside
 * letters, digits, `.`, `_`, `~`, `-`, `[` and `]` become `%XX`), joined by `, `. At most 20 names are
 * listed and the value is at most 1024 characters; names left out are counted in a final `...(+N)`. A name
 * is listed whole or not at all, so the value is always printable ASCII and every listed name decodes back.
 */
export const IGNORED_FIELDS_MAX_NAMES = 20;
export const IGNORED_FIELDS_MAX_CHARS = 1024;

const SEPARATOR = ', ';
const SAFE = /^[A-Za-z0-9._~\-[\]]$/;
/** `, ...(+N)` with N up to 8 digits. */
const MORE_ROOM = 16;
const MORE = /^\.\.\.\(\+(\d+)\)$/;
/** What Node accepts in a header value (its own check): tab, printable ASCII and bytes 0x80-0xff. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function encodeFieldName(name: string): string {
  let out = '';
  for (const ch of name) {
    if (SAFE.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The header value for these names (duplicates once), or undefined when there is none. */
export function ignoredFieldsHeader(names: readonly string[]): string | undefined {
  const unique = [...new Set(names)];
  if (!unique.length) return undefined;
  const encoded = unique.map(encodeFieldName);
  let listed = fitting(encoded, IGNORED_FIELDS_MAX_CHARS);
  if (listed.length === unique.length) return listed.join(SEPARATOR);
  // Room for the count of the names left out, so the whole value stays within the limit.
  listed = fitting(encoded, IGNORED_FIELDS_MAX_CHARS - MORE_ROOM);
  return [...listed, `...(+${unique.length - listed.length})`].join(SEPARATOR);
}

/** The first names (at most 20) that fit in `room` characters; a name too long for the rest is skipped. */
function fitting(encoded: readonly string[], room: number): string[] {
  const listed: string[] = [];
  let length = 0;
  for (const name of encoded) {
    if (listed.length === IGNORED_FIELDS_MAX_NAMES) break;
    const added = (listed.length ? SEPARATOR.length : 0) + name.length;
    if (length + added > room) continue;
    listed.push(name);
    length += added;
  }
  return listed;
}

/** The names a header value lists and how many it left out (the inverse of ignoredFieldsHeader). */
export function parseIgnoredFieldsHeader(value: string): { names: string[]; omitted: number } {
  const parts = value.split(SEPARATOR);
  const more = MORE.exec(parts[parts.length - 1] ?? '');
  if (more) parts.pop();
  return { names: parts.map((p) => decodeURIComponent(p)), omitted: more ? Number(more[1]) : 0 };
}

export function isValidFieldValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}
