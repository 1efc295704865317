import { randomUUID } from 'node:crypto';
import { paymentBody } from '../payments/payments-fixtures';
import { ADMIN_TOKEN, AppProcess } from '../support/processes';

/** What a client saw: a status, or the network error that took the answer away (reset, refused). */
export interface Outcome {
  status?: number;
  body?: any;
  error?: string;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  o: { key?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: o.timeoutMs ? AbortSignal.timeout(o.timeoutMs) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  } catch (e) {
    const cause = (e as Error & { cause?: Error & { code?: string } }).cause;
    return { error: `${(e as Error).message}: ${cause?.code ?? cause?.message ?? ''}` };
  }
}

/** A merchant and a sandbox private key, made through a gateway's admin API. */
export async function sandboxKey(gateway: AppProcess): Promise<{ merchantCode: string; key: string }> {
  const merchantCode = `m${randomUUID().slice(0, 8)}`;
  const admin = { key: ADMIN_TOKEN };
  const merchant = await call(gateway.adminUrl, 'POST', '/v1/admin/merchants', {
    ...admin,
    body: { merchantCode, name: 'Drain test' },
  });
  if (merchant.status !== 201) throw new Error(`merchant: ${JSON.stringify(merchant)}`);
  const key = await call(gateway.adminUrl, 'POST', '/v1/admin/keys', {
    ...admin,
    body: { merchantCodes: [merchantCode], type: 'private', environment: 'sandbox' },
  });
  if (key.status !== 201) throw new Error(`key: ${JSON.stringify(key)}`);
  return { merchantCode, key: key.body.key };
}

export function purchase(baseUrl: string, merchant: { merchantCode: string; key: string }): Promise<Outcome> {
  return call(baseUrl, 'POST', '/v1/payment/purchase', {
    key: merchant.key,
    body: paymentBody(merchant.merchantCode),
    headers: { 'idempotency-key': randomUUID() },
  });
}

/** `requests_in_progress{method=…}` from an app's /metrics (an HTTP count includes the scrape itself). */
export async function inProgress(app: AppProcess, method: 'http' | 'rpc'): Promise<number> {
  const text = await (await fetch(`${app.adminUrl}/metrics`)).text();
  const m = new RegExp(`^requests_in_progress\\{[^}]*method="${method}"[^}]*\\} (\\d+)`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}
