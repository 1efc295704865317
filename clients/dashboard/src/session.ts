import { createPaymentsClient, type PaymentsClient } from '../../typescript/src/client';
import { unwrap } from '../../typescript/src/errors';

export { unwrap };
export type { PaymentsClient };

export type Role = 'owner' | 'developer' | 'support';
export type Environment = 'sandbox' | 'production';

export interface Membership {
  merchantCode: string;
  merchantName: string;
  role: Role;
}

/** What GET /dashboard/api/session answers (docs/dashboard.md). */
export interface SessionView {
  user: { id: string; email: string; totpEnabled: boolean };
  memberships: Membership[];
  csrfToken: string;
  expiresAt: string;
}

/** A non-2xx answer of a session route, with the envelope's code and message. */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function sessionCall<T>(method: string, path: string, body?: unknown, csrfToken?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(`/dashboard/api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (!res.ok) {
    throw new SessionError(res.status, json.error?.code ?? 'ERROR', json.error?.message ?? `HTTP ${res.status}`);
  }
  return json as T;
}

export const sessionApi = {
  current: () => sessionCall<SessionView>('GET', 'session'),
  signIn: (email: string, password: string, totpCode?: string) =>
    sessionCall<SessionView>('POST', 'session', { email, password, ...(totpCode ? { totpCode } : {}) }),
  signOut: (s: SessionView) => sessionCall<void>('DELETE', 'session', undefined, s.csrfToken),
  signOutEverywhere: (s: SessionView) => sessionCall<void>('DELETE', 'sessions', undefined, s.csrfToken),
  /** A new secret (first or replacement): the password, and the current code while TOTP is on. */
  setUpTotp: (s: SessionView, password: string, code?: string) =>
    sessionCall<{ secret: string; otpauthUrl: string }>(
      'POST',
      'totp',
      { password, ...(code ? { code } : {}) },
      s.csrfToken,
    ),
  confirmTotp: (s: SessionView, code: string) => sessionCall<void>('POST', 'totp/confirm', { code }, s.csrfToken),
  removeTotp: (s: SessionView, password: string, code: string) =>
    sessionCall<void>('POST', 'totp/remove', { password, code }, s.csrfToken),
  auditEvents: () => sessionCall<AuditEventView[]>('GET', 'audit-events'),
  acceptInvitation: (token: string, password: string) =>
    sessionCall<{ email: string }>('POST', 'invitations/accept', { token, password }),
  keys: (s: SessionView, merchantCode: string, environment: Environment) =>
    sessionCall<ApiKeyView[]>(
      'GET',
      `keys?merchantCode=${encodeURIComponent(merchantCode)}&environment=${environment}`,
      undefined,
    ),
  createKey: (
    s: SessionView,
    body: { name: string; type: 'private' | 'public'; environment: Environment; merchantCode: string },
  ) => sessionCall<ApiKeyView & { key: string }>('POST', 'keys', body, s.csrfToken),
  revokeKey: (s: SessionView, id: string) =>
    sessionCall<void>('DELETE', `keys/${encodeURIComponent(id)}`, undefined, s.csrfToken),
  team: (merchantCode: string) =>
    sessionCall<TeamMember[]>('GET', `team?merchantCode=${encodeURIComponent(merchantCode)}`),
  invite: (s: SessionView, body: { merchantCode: string; email: string; role: Role }) =>
    sessionCall<TeamMember & { mail: 'sent' | 'failed' | 'off' | 'not_needed' }>('POST', 'team', body, s.csrfToken),
  changeRole: (s: SessionView, id: string, merchantCode: string, role: Role) =>
    sessionCall<TeamMember>('PATCH', `team/${encodeURIComponent(id)}`, { merchantCode, role }, s.csrfToken),
  removeMember: (s: SessionView, id: string, merchantCode: string) =>
    sessionCall<void>(
      'DELETE',
      `team/${encodeURIComponent(id)}?merchantCode=${encodeURIComponent(merchantCode)}`,
      undefined,
      s.csrfToken,
    ),
  connections: (merchantCode: string, environment: Environment) =>
    sessionCall<ConnectionView[]>(
      'GET',
      `connections?merchantCode=${encodeURIComponent(merchantCode)}&environment=${environment}`,
    ),
  requestPasswordReset: (email: string) => sessionCall<void>('POST', 'password-resets', { email }),
  resetPassword: (token: string, password: string) =>
    sessionCall<{ email: string }>('POST', 'password-resets/confirm', { token, password }),
};

/** A routing connection and its health (GET /dashboard/api/connections), in routing order. */
export interface ConnectionView {
  id: string;
  connectionCode: string;
  connectionName: string;
  acquirer: string;
  environment: Environment;
  priority: number;
  currencies: string[];
  methods: string[];
  isDefault: boolean;
  credentials?: {
    apiKeyLast4?: string;
    merchantAccountLast4?: string;
    hmacKeyLast4?: string;
    webhookSecretLast4?: string;
    updatedAt: string;
  };
  health: {
    circuit: 'closed' | 'open' | 'half_open';
    lastSuccessAt: string | null;
    lastFailureAt: string | null;
    lastFailureReason: 'unreachable' | 'timeout' | 'answer_lost' | null;
    errorRate: number;
    recentCalls: number;
  };
}

/** A member of the merchant's team (GET /dashboard/api/team). */
export interface TeamMember {
  id: string;
  email: string;
  role: Role;
  passwordSet: boolean;
  totpEnabled: boolean;
  createdAt: string;
}

/** An entry of the merchant's audit log (GET /v1/audit-events, docs/api.md). */
export interface AuditLogEntry {
  id: string;
  type: string;
  channel: 'dashboard' | 'api' | 'admin';
  userEmail: string | null;
  apiKeyId: string | null;
  environment: Environment | null;
  target: string | null;
  detail: Record<string, unknown>;
  clientAddress: string | null;
  createdAt: string;
}

/** A page of the merchant's audit log, as the signed-in user (owners). */
export async function auditLog(
  merchantCode: string,
  environment: Environment,
  startingAfter?: string,
): Promise<AuditLogEntry[]> {
  const query = `limit=50${startingAfter ? `&startingAfter=${encodeURIComponent(startingAfter)}` : ''}`;
  const res = await fetch(`/v1/audit-events?${query}`, {
    headers: {
      accept: 'application/json',
      'x-dashboard-merchant': merchantCode,
      'x-dashboard-environment': environment,
    },
    credentials: 'same-origin',
  });
  const json = (await res.json().catch(() => ({}))) as AuditLogEntry[] & {
    error?: { code?: string; message?: string };
  };
  if (!res.ok) {
    throw new SessionError(res.status, json.error?.code ?? 'ERROR', json.error?.message ?? `HTTP ${res.status}`);
  }
  return json;
}

/** An event of the user's audit trail (GET /dashboard/api/audit-events). */
export interface AuditEventView {
  id: string;
  type: 'totp.enabled' | 'totp.replaced' | 'totp.disabled';
  sessionId: string | null;
  clientAddress: string | null;
  createdAt: string;
}

export interface ApiKeyView {
  id: string;
  name: string | null;
  type: 'private' | 'public';
  environment: Environment;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * The typed API client acting as the signed-in user for one merchant and environment: the session cookie
 * (HttpOnly, never readable here) is the credential, the CSRF token goes with every change; no API key.
 */
export function apiClientFor(s: SessionView, merchantCode: string, environment: Environment): PaymentsClient {
  return createPaymentsClient({
    baseUrl: window.location.origin,
    retry: { attempts: 2 },
    fetch: (request: Request) => {
      const headers = new Headers(request.headers);
      headers.set('x-dashboard-merchant', merchantCode);
      headers.set('x-dashboard-environment', environment);
      if (request.method !== 'GET') headers.set('x-csrf-token', s.csrfToken);
      return fetch(new Request(request, { headers, credentials: 'same-origin' }));
    },
  });
}
