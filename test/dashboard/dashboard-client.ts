import { HttpResult, TestStack } from '../support/stack';

export const PASSWORD = 'correct horse battery staple';

/** What a browser sends with a change from the dashboard's own page: its origin (dashboard-surface.ts). */
export const fromDashboard = (stack: TestStack): Record<string, string> => ({ origin: stack.url });

/** A browser's view of the dashboard in tests: its session cookie and CSRF token, sent as the SPA sends them. */
export class DashboardClient {
  cookie?: string;
  csrfToken?: string;

  constructor(private readonly stack: TestStack) {}

  /** Invites a user with these memberships through the admin API, and sets the password from the link. */
  static async invited(
    stack: TestStack,
    memberships: { merchantCode: string; role: 'owner' | 'developer' | 'support' }[],
    email = `u${Math.random().toString(36).slice(2, 10)}@shop.example`,
  ): Promise<{ email: string; id: string }> {
    const invite = await stack.admin('POST', '/dashboard-users', { email, memberships });
    if (invite.status !== 201) throw new Error(`invite: ${invite.status} ${JSON.stringify(invite.body)}`);
    const token = String(invite.body.inviteUrl).split('#/invite/')[1];
    const accepted = await stack.http('POST', '/dashboard/api/invitations/accept', {
      body: { token, password: PASSWORD },
      headers: fromDashboard(stack),
    });
    if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    return { email, id: invite.body.id };
  }

  /** A signed-in client of a new user with these memberships. */
  static async signedIn(
    stack: TestStack,
    memberships: { merchantCode: string; role: 'owner' | 'developer' | 'support' }[],
  ): Promise<DashboardClient> {
    const { email } = await DashboardClient.invited(stack, memberships);
    const client = new DashboardClient(stack);
    const r = await client.signIn(email);
    if (r.status !== 200) throw new Error(`sign in: ${r.status} ${JSON.stringify(r.body)}`);
    return client;
  }

  async signIn(email: string, password = PASSWORD, totpCode?: string): Promise<HttpResult> {
    const r = await this.stack.http('POST', '/dashboard/api/session', {
      body: { email, password, totpCode },
      headers: fromDashboard(this.stack),
    });
    if (r.status === 200) {
      this.cookie = cookieOf(r.headers.get('set-cookie'));
      this.csrfToken = r.body.csrfToken;
    }
    return r;
  }

  /** A dashboard route or a /v1 route, with the cookie and (unless `csrf: false`) the CSRF token. */
  call(
    method: string,
    path: string,
    o: { body?: unknown; headers?: Record<string, string>; csrf?: boolean; key?: string } = {},
  ): Promise<HttpResult> {
    const headers: Record<string, string> = { ...fromDashboard(this.stack), ...o.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (o.csrf !== false && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    return this.stack.http(method, path, { body: o.body, headers, key: o.key });
  }

  /** A /v1 route as the dashboard calls it: for one merchant, in one environment. */
  api(
    method: string,
    path: string,
    merchantCode: string,
    o: { body?: unknown; environment?: string; csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<HttpResult> {
    return this.call(method, path, {
      ...o,
      headers: {
        'x-dashboard-merchant': merchantCode,
        'x-dashboard-environment': o.environment ?? 'sandbox',
        ...o.headers,
      },
    });
  }
}

/** `pp_dash=<token>` from a Set-Cookie header. */
export function cookieOf(setCookie: string | null): string {
  const match = /(?:^|,\s*)(pp_dash=[^;]*)/.exec(setCookie ?? '');
  if (!match) throw new Error(`no pp_dash cookie in ${setCookie}`);
  return match[1];
}
