/**
 * An origin a merchant registers for its card fields, as browsers write it: scheme, host and port only
 * (`https://shop.example.com`, `https://shop.example.com:8443`), no path or wildcard. HTTPS is required,
 * except for a page on this machine (localhost, 127.0.0.1, [::1]) during development.
 */
export function isAllowedOriginShape(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 200) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.origin !== value) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
