const HOST = /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i;

/** The value when it is exactly a web origin as browsers write it (scheme, host, port); else undefined. */
export function exactOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 200) return undefined;
  try {
    const url = new URL(value);
    const web = url.protocol === 'https:' || url.protocol === 'http:';
    return web && url.origin === value && HOST.test(url.hostname) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An origin a merchant registers for its card fields: scheme, host and port only
 * (`https://shop.example.com`, `https://shop.example.com:8443`), no path or wildcard. HTTPS is required,
 * except for a page on this machine (localhost, 127.0.0.1, [::1]) during development.
 */
export function isAllowedOriginShape(value: unknown): value is string {
  const origin = exactOrigin(value);
  if (!origin) return false;
  const url = new URL(origin);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
