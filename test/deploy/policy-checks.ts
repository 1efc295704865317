/**
 * Static checks of the NetworkPolicies in k8s/base: what may reach each app and what each app may reach. Each
 * check returns its problems, empty when all is well (as manifest-checks.ts).
 */
import { APPS, Deployment, K8sDoc, KeyValues, ofKind } from './manifest-checks';

type Labels = Record<string, string>;
interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PolicyPort[];
}
export interface NetworkPolicy {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { podSelector: Selector; policyTypes?: string[]; ingress?: Rule[]; egress?: Rule[] };
}

/** Where the policies expect NATS (k8s/nats, in the platform's namespace), Prometheus, and each app's database. */
const isNats = (p: Peer): boolean =>
  !p.namespaceSelector && !p.ipBlock && p.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'nats';
export const MONITORING_NAMESPACE = 'monitoring';
export const databaseCluster = (app: string): string => `pg-${app}`;
/** What the webhooks service's internet egress must keep closed: private, loopback, link-local and shared ranges. */
const PRIVATE_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
];
/** The same in IPv6: loopback, IPv4-mapped, local-use NAT64, unique-local and link-local. */
const PRIVATE_V6 = ['::1/128', '::ffff:0:0/96', '64:ff9b:1::/48', 'fc00::/7', 'fe80::/10'];
/**
 * The apps whose pods may reach the internet, HTTPS to public addresses only: payments (the payment providers'
 * APIs) and webhooks (delivery to merchants' endpoints).
 */
export const INTERNET_APPS = ['payments', 'webhooks'];
export const PUBLIC_HTTPS = ['public internet (HTTPS)', 'public internet IPv6 (HTTPS)'];

const selects = (s: Selector, labels: Labels): boolean =>
  Object.entries(s.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
  (s.matchExpressions ?? []).every((e) =>
    e.operator === 'In'
      ? (e.values ?? []).includes(labels[e.key])
      : e.operator === 'NotIn'
        ? !(e.values ?? []).includes(labels[e.key])
        : e.operator === 'Exists'
          ? labels[e.key] !== undefined
          : labels[e.key] === undefined,
  );
const namespaceOf = (p: Peer): string | undefined => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
const isEmpty = (s: Selector | undefined): boolean =>
  !!s && !Object.keys(s.matchLabels ?? {}).length && !(s.matchExpressions ?? []).length;

/** The pods the platform runs: each Deployment's and the migrate Job's template labels. */
function workloads(docs: K8sDoc[]): { name: string; labels: Labels; ports: Map<string, number> }[] {
  return [...ofKind<Deployment>(docs, 'Deployment'), ...ofKind<Deployment>(docs, 'Job')].map((d) => ({
    name: d.metadata.name,
    labels: d.spec.template.metadata.labels,
    ports: new Map((d.spec.template.spec.containers[0].ports ?? []).map((p) => [p.name ?? '', p.containerPort])),
  }));
}

function describePeer(p: Peer): string {
  if (p.ipBlock) return `ipBlock ${p.ipBlock.cidr}`;
  const ns = p.namespaceSelector
    ? `namespace ${namespaceOf(p) ?? JSON.stringify(p.namespaceSelector)}`
    : 'this namespace';
  return `${ns} pods ${JSON.stringify(p.podSelector ?? {})}`;
}

/** One allowed peer and port of an egress rule, named by what it is, or a problem. */
function egressKind(app: string, peer: Peer, ports: PolicyPort[]): string {
  const numbers = ports.map((p) => p.port);
  const only = (...allowed: number[]) => numbers.length > 0 && numbers.every((n) => allowed.includes(Number(n)));
  if (namespaceOf(peer) === 'kube-system' && peer.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns' && only(53)) {
    return 'dns';
  }
  if (isNats(peer) && only(4222)) return 'nats';
  const clusters = (() => {
    const s = peer.podSelector;
    if (!s || peer.namespaceSelector || peer.ipBlock) return [];
    const label = s.matchLabels?.['cnpg.io/cluster'];
    const listed = s.matchExpressions?.find((e) => e.key === 'cnpg.io/cluster' && e.operator === 'In')?.values;
    return label ? [label] : (listed ?? []);
  })();
  if (clusters.length && only(5432)) return `database ${clusters.sort().join(',')}`;
  const closes = (ranges: string[]) => ranges.every((r) => peer.ipBlock?.except?.includes(r));
  const https = ports.length > 0 && ports.every((p) => Number(p.port) === 443 && (p.protocol ?? 'TCP') === 'TCP');
  if (peer.ipBlock?.cidr === '0.0.0.0/0' && closes(PRIVATE_V4) && https) return PUBLIC_HTTPS[0];
  if (peer.ipBlock?.cidr === '::/0' && closes(PRIVATE_V6) && https) return PUBLIC_HTTPS[1];
  return `${describePeer(peer)} on ${numbers.join(',') || 'every port'}`;
}

/** What each app may reach, as egressKind names (every rule of every policy that selects its pods). */
export function egressOf(docs: K8sDoc[]): Map<string, Set<string>> {
  const policies = ofKind<NetworkPolicy>(docs, 'NetworkPolicy');
  return new Map(
    workloads(docs).map((w) => {
      const kinds = policies
        .filter((p) => selects(p.spec.podSelector, w.labels))
        .flatMap((p) => p.spec.egress ?? [])
        // A rule without peers (no `to`, or an empty one) allows every destination.
        .flatMap((r) =>
          (r.to?.length ? r.to : [{ ipBlock: { cidr: 'anywhere' } }]).map((peer) =>
            egressKind(w.name, peer, r.ports ?? []),
          ),
        );
      return [w.name, new Set(kinds)];
    }),
  );
}

/**
 * The pods that may open a connection to some address outside the cluster: any egress rule to an ipBlock, or
 * one without peers (everywhere). Only the payments and webhooks services' should.
 */
export function internetReachers(docs: K8sDoc[]): string[] {
  const policies = ofKind<NetworkPolicy>(docs, 'NetworkPolicy');
  return workloads(docs)
    .filter((w) =>
      policies
        .filter((p) => selects(p.spec.podSelector, w.labels))
        .flatMap((p) => p.spec.egress ?? [])
        .some((r) => !r.to?.length || r.to.some((peer) => peer.ipBlock)),
    )
    .map((w) => w.name)
    .sort();
}

/**
 * Every pod of the platform is under a deny-all policy (ingress and egress); only the gateway takes ingress
 * from outside the namespace, on its public port; its internal port opens to the namespace and Prometheus
 * only; the services open their metrics port to Prometheus only; each app reaches DNS, NATS and its own
 * database cluster (the one its Secret's URL names) and nothing else, but the payments and webhooks services'
 * HTTPS to public addresses (IPv4 and IPv6, private ranges closed).
 */
export function networkPolicyProblems(docs: K8sDoc[]): string[] {
  const policies = ofKind<NetworkPolicy>(docs, 'NetworkPolicy');
  const secrets = ofKind<KeyValues>(docs, 'Secret').find((s) => s.metadata.name === 'platform-secrets');
  const egress = egressOf(docs);
  return workloads(docs).flatMap((w) => {
    const where = `pods of ${w.name}`;
    const mine = policies.filter((p) => selects(p.spec.podSelector, w.labels));
    const problems: string[] = [];
    const denyAll = mine.some(
      (p) => ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) && !p.spec.ingress && !p.spec.egress,
    );
    if (!denyAll) problems.push(`${where}: no deny-all policy (Ingress and Egress) selects them`);
    for (const rule of mine.flatMap((p) => p.spec.ingress ?? [])) {
      const ports = (rule.ports ?? []).map((p) => (typeof p.port === 'string' ? w.ports.get(p.port) : p.port));
      const open =
        !rule.from || rule.from.some((f) => f.ipBlock || (f.namespaceSelector && isEmpty(f.namespaceSelector)));
      const publicPort = w.name === 'gateway' ? APPS.gateway.defaultPort : undefined;
      if (open && !(ports.length && ports.every((p) => p !== undefined && p === publicPort))) {
        problems.push(`${where}: ingress from anywhere on ${ports.join(',') || 'every port'}`);
      }
      if (open) continue;
      const outside = (rule.from ?? []).filter(
        (f) => !(isEmpty(f.podSelector) && !f.namespaceSelector) && namespaceOf(f) !== MONITORING_NAMESPACE,
      );
      for (const f of outside) problems.push(`${where}: ingress from ${describePeer(f)}`);
      if (w.name !== 'gateway' && (rule.from ?? []).some((f) => namespaceOf(f) !== MONITORING_NAMESPACE)) {
        problems.push(`${where}: a service takes ingress from other than Prometheus`);
      }
    }
    const allowed = new Set(['dns']);
    if (w.name === 'migrate') {
      allowed.add(`database ${Object.keys(APPS).map(databaseCluster).sort().join(',')}`);
    } else {
      allowed.add('nats').add(`database ${databaseCluster(w.name)}`);
      if (INTERNET_APPS.includes(w.name)) for (const k of PUBLIC_HTTPS) allowed.add(k);
      const url = secrets?.stringData?.[APPS[w.name]?.dbVar ?? ''];
      const host = url ? new URL(url).hostname.split('.')[0] : undefined;
      if (host !== `${databaseCluster(w.name)}-rw`) {
        problems.push(`${where}: the Secret's database host ${host} is not ${databaseCluster(w.name)}-rw`);
      }
    }
    const reached = egress.get(w.name) ?? new Set();
    for (const k of reached) if (!allowed.has(k)) problems.push(`${where}: egress to ${k}`);
    for (const k of allowed) if (!reached.has(k)) problems.push(`${where}: cannot reach its ${k}`);
    return problems;
  });
}
