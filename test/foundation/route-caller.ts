import { randomUUID } from 'node:crypto';
import { DashboardClient } from '../dashboard/dashboard-client';
import { checkoutToken, linksMerchant } from '../payment-links/link-fixtures';
import { ApiOperation, apiOperations, fillPath } from '../support/openapi-routes';
import { ADMIN_TOKEN, TestStack } from '../support/stack';

/**
 * Calls any route of /openapi.json as its rightful caller: a merchant's private key, the admin token, an owner's
 * dashboard session on the dashboard's routes, or on the browser routes a payment link's client token (keyless
 * routes do not read it); path ids are the link's on the checkout routes and fresh uuids elsewhere.
 */
export class RouteCaller {
  private constructor(
    readonly stack: TestStack,
    readonly operations: ApiOperation[],
    readonly key: string,
    readonly merchantCode: string,
    readonly linkId: string,
    readonly linkToken: string,
    readonly dashboard: DashboardClient,
  ) {}

  static async start(): Promise<RouteCaller> {
    const stack = await TestStack.start({ services: ['payments', 'payment-links', 'billing'] });
    const links = await linksMerchant(stack);
    const linkId = (await links.link()).id as string;
    const linkToken = await checkoutToken(stack, linkId);
    const dashboard = await DashboardClient.signedIn(stack, [{ merchantCode: links.m.merchantCode, role: 'owner' }]);
    const operations = await apiOperations(stack);
    return new RouteCaller(stack, operations, links.m.key, links.m.merchantCode, linkId, linkToken, dashboard);
  }

  /** The credential of a route as `stack.http` options: a Bearer key, or the dashboard session's cookie and CSRF token. */
  auth(o: ApiOperation): { key?: string; headers?: Record<string, string> } {
    const page = this.page(o);
    if (o.auth !== 'dashboardSession') return { key: this.credential(o), headers: page };
    return { headers: { ...page, cookie: this.dashboard.cookie!, 'x-csrf-token': this.dashboard.csrfToken! } };
  }

  /** The dashboard's routes take changes from its own page only: a browser there sends its origin. */
  page(o: ApiOperation): Record<string, string> {
    return o.path.startsWith('/dashboard/api/') ? { origin: this.stack.url } : {};
  }

  credential(o: ApiOperation): string {
    return { privateKey: this.key, adminToken: ADMIN_TOKEN }[o.auth ?? ''] ?? this.linkToken;
  }

  pathOf(o: ApiOperation): string {
    const id = o.path.startsWith('/v1/checkout/') ? this.linkId : randomUUID();
    return fillPath(o.path, { id, merchantCode: this.merchantCode });
  }
}
