import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APPS, K8S_DIR, KeyValues, loadK8sDocs, Meta, ofKind, Pdb } from './manifest-checks';
import { databaseCluster } from './policy-checks';

/**
 * What the deployment promises about lost machines (docs/operations.md#failures-and-what-they-cost): every
 * app's database is a CloudNativePG Cluster that keeps an acknowledged commit on two instances in different
 * zones, and the EVENTS stream has a copy on each of the three NATS servers. kubernetes-models has no
 * CloudNativePG kinds, so these fields are checked here against the operator's Cluster CRD (postgresql.cnpg.io/v1:
 * `spec.postgresql.synchronous` {method any|first, number > 0, dataDurability required|preferred}, `spec.affinity`).
 */
interface Cluster extends Meta {
  spec: {
    instances: number;
    minSyncReplicas?: number;
    maxSyncReplicas?: number;
    postgresql?: { synchronous?: { method?: string; number?: number; dataDurability?: string } };
    affinity?: { enablePodAntiAffinity?: boolean; podAntiAffinityType?: string; topologyKey?: string };
  };
}
interface Database extends Meta {
  spec: { name: string; owner: string; cluster: { name: string } };
}
interface Spread {
  topologyKey: string;
  whenUnsatisfiable: string;
}
interface StatefulSet extends Meta {
  spec: { replicas: number; template: { spec: { topologySpreadConstraints?: Spread[] } } };
}
const spreadOver = (spread: Spread[] | undefined): string[] =>
  (spread ?? []).map((s) => `${s.topologyKey} ${s.whenUnsatisfiable}`).sort();

const postgres = loadK8sDocs(join(K8S_DIR, 'postgres'));
const base = loadK8sDocs(join(K8S_DIR, 'base'));
const nats = loadK8sDocs(join(K8S_DIR, 'nats'));

/** The problems of one Cluster's replication: what would let an acknowledged commit live on one instance only. */
export function clusterProblems(c: Cluster): string[] {
  const where = `Cluster/${c.metadata.name}`;
  const sync = c.spec.postgresql?.synchronous;
  const problems: string[] = [];
  if (c.spec.instances < 3) problems.push(`${where}: ${c.spec.instances} instances, a failover needs 3`);
  if (!sync) return [...problems, `${where}: no spec.postgresql.synchronous: a promoted standby may lack commits`];
  if (!['any', 'first'].includes(sync.method ?? '')) problems.push(`${where}: synchronous.method ${sync.method}`);
  const n = sync.number ?? 0;
  if (n < 1) problems.push(`${where}: synchronous.number ${n}: no commit waits for a standby`);
  // One instance lost (the primary among them) must leave enough standbys for commits to go on.
  if (n > c.spec.instances - 2)
    problems.push(`${where}: synchronous.number ${n} stops writes when one instance is lost`);
  if ((sync.dataDurability ?? 'required') !== 'required') {
    problems.push(`${where}: dataDurability ${sync.dataDurability}: with no standby, commits land on one instance`);
  }
  if (c.spec.minSyncReplicas !== undefined || c.spec.maxSyncReplicas !== undefined) {
    problems.push(`${where}: minSyncReplicas/maxSyncReplicas beside spec.postgresql.synchronous`);
  }
  const a = c.spec.affinity;
  if (a?.enablePodAntiAffinity === false || a?.podAntiAffinityType !== 'required') {
    problems.push(`${where}: instances may share a failure domain (podAntiAffinityType must be required)`);
  }
  if (a?.topologyKey !== 'topology.kubernetes.io/zone') problems.push(`${where}: instances not spread over zones`);
  return problems;
}

describe('k8s/postgres: one CloudNativePG Cluster per app, an acknowledged commit on two instances', () => {
  const clusters = ofKind<Cluster>(postgres, 'Cluster');

  it('has a Cluster and a Database for each app, named as the NetworkPolicies and Secret expect', () => {
    const apps = Object.keys(APPS).sort();
    expect(clusters.map((c) => c.metadata.name).sort()).toEqual(apps.map(databaseCluster).sort());
    const [secret] = ofKind<KeyValues>(base, 'Secret').filter((s) => s.metadata.name === 'platform-secrets');
    for (const app of apps) {
      const url = new URL(secret.stringData![APPS[app].dbVar]);
      const db = ofKind<Database>(postgres, 'Database').find((d) => d.spec.cluster.name === databaseCluster(app));
      expect([app, db?.spec.name]).toEqual([app, url.pathname.slice(1)]);
    }
  });

  it('replicates synchronously, refuses to commit on one instance alone, spreads instances over zones', () => {
    expect(clusters.flatMap(clusterProblems)).toEqual([]);
  });

  it('the check finds each weakening', () => {
    const good = clusters[0];
    const variant = (spec: Partial<Cluster['spec']>): Cluster => ({ ...good, spec: { ...good.spec, ...spec } });
    const sync = good.spec.postgresql!.synchronous!;
    expect(clusterProblems(variant({ postgresql: {} }))).toHaveLength(1);
    expect(clusterProblems(variant({ instances: 2 })).join()).toMatch(/3|stops writes/);
    expect(
      clusterProblems(variant({ postgresql: { synchronous: { ...sync, dataDurability: 'preferred' } } })),
    ).toHaveLength(1);
    expect(clusterProblems(variant({ postgresql: { synchronous: { ...sync, number: 2 } } }))).toHaveLength(1);
    expect(
      clusterProblems(variant({ affinity: { ...good.spec.affinity, topologyKey: 'kubernetes.io/hostname' } })),
    ).toHaveLength(1);
  });
});

describe('k8s/nats: three servers, the EVENTS stream on all three', () => {
  it('runs three servers, routes them all, keeps two through a drain, and asks for three stream replicas', () => {
    const [server] = ofKind<StatefulSet>(nats, 'StatefulSet');
    expect(server.spec.replicas).toBe(3);
    const routes = readFileSync(join(K8S_DIR, 'nats', 'nats.conf'), 'utf8').match(/nats:\/\/nats-\d+\.nats-headless/g);
    expect(routes).toHaveLength(server.spec.replicas);
    const [pdb] = ofKind<Pdb & { spec: { maxUnavailable?: number } }>(nats, 'PodDisruptionBudget');
    expect(pdb.spec.maxUnavailable).toBe(1);
    const [config] = ofKind<KeyValues>(base, 'ConfigMap');
    expect(Number(config.data!.EVENTS_STREAM_REPLICAS)).toBe(server.spec.replicas);
  });

  it('puts each server on a node and in a zone of its own, and spreads the apps over zones', () => {
    const [server] = ofKind<StatefulSet>(nats, 'StatefulSet');
    expect(spreadOver(server.spec.template.spec.topologySpreadConstraints)).toEqual([
      'kubernetes.io/hostname DoNotSchedule',
      'topology.kubernetes.io/zone DoNotSchedule',
    ]);
    for (const d of ofKind<StatefulSet>(base, 'Deployment')) {
      const keys = spreadOver(d.spec.template.spec.topologySpreadConstraints).map((s) => s.split(' ')[0]);
      expect([d.metadata.name, keys]).toEqual([
        d.metadata.name,
        ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
      ]);
    }
  });
});
