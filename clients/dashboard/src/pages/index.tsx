import { AuditPage } from './audit';
import { ConnectionsPage } from './connections';
import { EventPage, EventsPage } from './events';
import { HomePage } from './home';
import { KeysPage } from './keys';
import { LinksPage } from './links';
import { PaymentPage, PaymentsPage } from './payments';
import { SandboxPage } from './sandbox';
import { SecurityPage } from './security';
import { SubscriptionPage, SubscriptionsPage } from './subscriptions';
import { TeamPage } from './team';
import { WebhookEndpointPage, WebhooksPage } from './webhooks';

export const NAV: Array<{ path: string; label: string; owner?: boolean; sandbox?: boolean }> = [
  { path: 'home', label: 'Home' },
  { path: 'payments', label: 'Payments' },
  { path: 'subscriptions', label: 'Subscriptions' },
  { path: 'links', label: 'Payment links' },
  { path: 'webhooks', label: 'Webhooks' },
  { path: 'events', label: 'Events' },
  { path: 'connections', label: 'Connections' },
  { path: 'keys', label: 'API keys', owner: true },
  { path: 'team', label: 'Team' },
  { path: 'audit', label: 'Audit log', owner: true },
  { path: 'sandbox', label: 'Sandbox clock', sandbox: true },
  { path: 'security', label: 'Security' },
];

export function Pages({ page, rest }: { page: string; rest: string[] }) {
  const id = rest[0];
  switch (page) {
    case 'home':
      return <HomePage />;
    case 'subscriptions':
      return id ? <SubscriptionPage id={id} /> : <SubscriptionsPage />;
    case 'links':
      return <LinksPage />;
    case 'webhooks':
      return id ? <WebhookEndpointPage id={id} /> : <WebhooksPage />;
    case 'events':
      return id ? <EventPage id={id} /> : <EventsPage />;
    case 'connections':
      return <ConnectionsPage />;
    case 'keys':
      return <KeysPage />;
    case 'team':
      return <TeamPage />;
    case 'audit':
      return <AuditPage />;
    case 'sandbox':
      return <SandboxPage />;
    case 'security':
      return <SecurityPage />;
    default:
      return id ? <PaymentPage id={id} /> : <PaymentsPage />;
  }
}
