/**
 * Static checks of the deployment files (docker-compose.yml, k8s/) against the apps' env schemas. Each check
 * returns a list of problems, empty when all is well, so a failing test names every mistake at once and the
 * self-checks can feed in broken copies.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { EnvSchema } from '@app/config';
import { billingEnv } from '../../apps/billing/src/config';
import { gatewayEnv } from '../../apps/gateway/src/config';
import { paymentLinksEnv } from '../../apps/payment-links/src/config';
import { webhooksEnv } from '../../apps/webhooks/src/config';
import { paymentsEnv } from '../../apps/payments/src/config';

export const ROOT = resolve(__dirname, '..', '..');
export const K8S_DIR = join(ROOT, 'k8s');

export interface AppInfo {
  schema: EnvSchema;
  portVar: string;
  /** The gateway's internal port variable (admin API, /metrics); the services have none. */
  internalPortVar?: string;
  dbVar: string;
  defaultPort: number;
}

function appInfo(schema: EnvSchema): AppInfo {
  const only = (keys: string[]): string => {
    if (keys.length !== 1) throw new Error(`expected one variable, got ${keys.join(', ') || 'none'}`);
    return keys[0];
  };
  const keys = Object.keys(schema);
  const portVar = only(keys.filter((k) => k === 'PORT' || k.endsWith('_HTTP_PORT')));
  const dbVar = only(keys.filter((k) => k.endsWith('_DATABASE_URL')));
  const internalPortVar = keys.find((k) => k === 'ADMIN_PORT');
  return {
    schema,
    portVar,
    internalPortVar,
    dbVar,
    defaultPort: schema[portVar].parse(undefined, portVar, {}) as number,
  };
}

/** Compose service, Deployment and `apps/<name>` all use the same name. */
export const APPS: Record<string, AppInfo> = {
  gateway: appInfo(gatewayEnv),
  payments: appInfo(paymentsEnv),
  'payment-links': appInfo(paymentLinksEnv),
  billing: appInfo(billingEnv),
  webhooks: appInfo(webhooksEnv),
};
export const isSecretVar = (name: string): boolean =>
  name.endsWith('_DATABASE_URL') || Object.values(APPS).some((a) => a.schema[name]?.secret === true);

/** Unknown names and values the app's own parser rejects. */
export function envProblems(where: string, env: Record<string, string>, schemas: EnvSchema[]): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    const specs = schemas.map((s) => s[name]).filter(Boolean);
    if (!specs.length) problems.push(`${where}: ${name} is not a variable the app reads`);
    for (const spec of specs) {
      try {
        spec.parse(value, name, env);
      } catch (e) {
        problems.push(`${where}: ${(e as Error).message}`);
      }
    }
  }
  return problems;
}

export const missing = (where: string, names: string[], present: Iterable<string>): string[] => {
  const have = new Set(present);
  return names.filter((n) => !have.has(n)).map((n) => `${where}: ${n} is not set`);
};

export const requiredVars = (app: AppInfo): string[] => ['NATS_URL', app.dbVar, app.portVar];

/** The port the app listens on given its environment: its port variable, or the schema default. */
export function listenPort(app: AppInfo, env: Record<string, string>): number {
  return env[app.portVar] ? Number(env[app.portVar]) : app.defaultPort;
}

/** Every port the app listens on: its own, then its internal one if it has one. */
export function listenPorts(app: AppInfo, env: Record<string, string>): number[] {
  const v = app.internalPortVar;
  if (!v) return [listenPort(app, env)];
  return [listenPort(app, env), env[v] ? Number(env[v]) : (app.schema[v].parse(undefined, v, {}) as number)];
}

/** `node dist/apps/<app>/src/main.js` (or APP=<app>) -> <app>, and the source file it is built from. */
export function entrypointProblems(where: string, expectedApp: string, command: unknown): string[] {
  const text = Array.isArray(command) ? command.join(' ') : String(command ?? '');
  const app = /dist\/apps\/([a-z-]+)\/src\/main\.js/.exec(text)?.[1];
  if (!app) return [`${where}: command "${text}" does not run dist/apps/<app>/src/main.js`];
  if (app !== expectedApp) return [`${where}: runs ${app}, expected ${expectedApp}`];
  const source = join('apps', app, 'src', 'main.ts');
  return existsSync(join(ROOT, source)) ? [] : [`${where}: ${source} does not exist`];
}

// ---------------------------------------------------------------- Kubernetes

type Labels = Record<string, string>;
export interface Meta {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Labels };
}
interface ContainerPort {
  name?: string;
  containerPort: number;
}
interface Probe {
  httpGet?: { path?: string; port?: number | string };
}
export interface Container {
  name: string;
  command?: string[];
  ports?: ContainerPort[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Labels; limits?: Labels };
  lifecycle?: { preStop?: { exec?: { command?: string[] }; sleep?: { seconds?: number } } };
}
export interface Deployment extends Meta {
  spec: {
    replicas?: number;
    selector: { matchLabels: Labels };
    strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
    template: {
      metadata: { labels: Labels; annotations?: Record<string, string> };
      spec: {
        securityContext?: { runAsNonRoot?: boolean };
        terminationGracePeriodSeconds?: number;
        containers: Container[];
      };
    };
  };
}
export interface Service extends Meta {
  spec: { selector?: Labels; ports: { port: number; targetPort?: number | string }[] };
}
export interface Hpa extends Meta {
  spec: { scaleTargetRef: { kind: string; name: string } };
}
export interface Pdb extends Meta {
  spec: { selector: { matchLabels: Labels } };
}
export interface KeyValues extends Meta {
  data?: Labels;
  stringData?: Labels;
}
export interface K8sDoc {
  where: string;
  obj: Meta;
}

export function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every document of every YAML file under `dir`, kustomization files excepted. */
export function loadK8sDocs(dir = K8S_DIR): K8sDoc[] {
  return yamlFiles(dir)
    .filter((f) => !/kustomization\.ya?ml$/.test(f))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).flatMap((doc, i) => {
        if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
        const obj = doc.toJS() as Meta | null;
        return obj ? [{ where: `${relative(ROOT, file)}#${i} ${obj.kind}/${obj.metadata?.name}`, obj }] : [];
      }),
    );
}

export const ofKind = <T extends Meta>(docs: K8sDoc[], kind: string): T[] =>
  docs.filter((d) => d.obj.kind === kind).map((d) => d.obj as T);

// kubernetes-models is ESM only, which jest's CommonJS runtime cannot load: validate in a child node process.
// The Prometheus Operator's kinds (ServiceMonitor, PrometheusRule) are validated against its CRD schemas.
const VALIDATE = `
import { readFileSync } from 'node:fs';
const problems = [];
for (const { where, obj } of JSON.parse(readFileSync(0, 'utf8'))) {
  const { apiVersion, kind } = obj ?? {};
  if (!/^([a-z0-9.-]+\\/)?v[0-9a-z]+$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
    problems.push(where + ': missing or malformed apiVersion/kind');
    continue;
  }
  let Model;
  try {
    const models = apiVersion.startsWith('monitoring.coreos.com/')
      ? '@kubernetes-models/prometheus-operator/'
      : 'kubernetes-models/';
    Model = (await import(models + apiVersion + '/' + kind))[kind];
  } catch (e) {
    problems.push(where + ': unknown kind ' + apiVersion + ' ' + kind + ' (' + e.code + ')');
    continue;
  }
  try {
    new Model(obj).validate();
  } catch (e) {
    problems.push(where + ': ' + e.message);
  }
}
process.stdout.write(JSON.stringify(problems));
`;

export function schemaProblems(docs: K8sDoc[]): string[] {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', VALIDATE], {
    cwd: ROOT,
    input: JSON.stringify(docs),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

export function kustomizationProblems(dir = K8S_DIR): string[] {
  return yamlFiles(dir)
    .filter((f) => /kustomization\.ya?ml$/.test(f))
    .flatMap((file) => {
      const k = parse(readFileSync(file, 'utf8')) as { resources?: string[] };
      const listed = (k.resources ?? []).map((r) => resolve(dirname(file), r));
      const where = relative(ROOT, file);
      return [
        ...listed.filter((r) => !existsSync(r)).map((r) => `${where}: resource ${relative(ROOT, r)} does not exist`),
        ...readdirSync(dirname(file))
          .filter((f) => /\.ya?ml$/.test(f) && !/kustomization\.ya?ml$/.test(f))
          .map((f) => join(dirname(file), f))
          .filter((f) => !listed.includes(f))
          .map((f) => `${where}: ${relative(ROOT, f)} is not listed in resources`),
      ];
    });
}

const matches = (selector: Labels, labels: Labels): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const declares = (c: Container, port: number | string | undefined): boolean =>
  (c.ports ?? []).some((p) => p.containerPort === port || (p.name !== undefined && p.name === port));

/** Services select a Deployment's pods and target one of its container ports. */
export function serviceProblems(docs: K8sDoc[]): string[] {
  const deployments = ofKind<Deployment>(docs, 'Deployment');
  return ofKind<Service>(docs, 'Service').flatMap((svc) => {
    const where = `Service/${svc.metadata.name}`;
    const selector = svc.spec.selector ?? {};
    const targets = deployments.filter((d) => matches(selector, d.spec.template.metadata.labels ?? {}));
    if (!Object.keys(selector).length || !targets.length) return [`${where}: selector matches no Deployment's pods`];
    return svc.spec.ports
      .map((p) => p.targetPort ?? p.port)
      .filter((port) => !targets.every((d) => d.spec.template.spec.containers.some((c) => declares(c, port))))
      .map((port) => `${where}: targetPort ${port} is not a containerPort of ${targets.map((d) => d.metadata.name)}`);
  });
}

/** Probes on the declared ports and the health paths every app serves (/health/live, /health/ready). */
export function probeProblems(docs: K8sDoc[]): string[] {
  const paths = { startupProbe: '/health/live', readinessProbe: '/health/ready', livenessProbe: '/health/live' };
  return ofKind<Deployment>(docs, 'Deployment').flatMap((d) =>
    d.spec.template.spec.containers.flatMap((c) =>
      (Object.keys(paths) as (keyof typeof paths)[]).flatMap((probe) => {
        const get = c[probe]?.httpGet;
        const where = `Deployment/${d.metadata.name} ${c.name} ${probe}`;
        if (!get) return [`${where}: missing httpGet probe`];
        return [
          ...(declares(c, get.port) ? [] : [`${where}: port ${get.port} is not a declared containerPort`]),
          ...(get.path === paths[probe] ? [] : [`${where}: path ${get.path}, expected ${paths[probe]}`]),
        ];
      }),
    ),
  );
}

/** ConfigMap and Secret keys are variables some app reads; secrets stay out of ConfigMaps. */
export function keyValueProblems(docs: K8sDoc[]): string[] {
  const schemas = Object.values(APPS).map((a) => a.schema);
  return [...ofKind<KeyValues>(docs, 'ConfigMap'), ...ofKind<KeyValues>(docs, 'Secret')].flatMap((o) => {
    const where = `${o.kind}/${o.metadata.name}`;
    const env = { ...o.data, ...o.stringData };
    if (o.kind === 'Secret' && o.data) {
      for (const k of Object.keys(o.data)) env[k] = Buffer.from(o.data[k], 'base64').toString('utf8');
    }
    const leaked = o.kind === 'ConfigMap' ? Object.keys(env).filter(isSecretVar) : [];
    return [...envProblems(where, env, schemas), ...leaked.map((k) => `${where}: ${k} is a secret`)];
  });
}

/** Each Deployment runs one app on its port, with its required variables and only its own secrets. */
export function deploymentProblems(docs: K8sDoc[]): string[] {
  const values = (o: KeyValues): Labels => ({ ...o.data, ...o.stringData });
  const configMaps = new Map(ofKind<KeyValues>(docs, 'ConfigMap').map((o) => [o.metadata.name, values(o)]));
  const secrets = new Map(ofKind<KeyValues>(docs, 'Secret').map((o) => [o.metadata.name, values(o)]));
  const scaled = ofKind<Hpa>(docs, 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
  return ofKind<Deployment>(docs, 'Deployment').flatMap((d) => {
    const where = `Deployment/${d.metadata.name}`;
    const app = APPS[d.metadata.name];
    if (!app) return [`${where}: not one of the apps ${Object.keys(APPS)}`];
    const { containers, securityContext } = d.spec.template.spec;
    const c = containers[0];
    const problems = containers.length === 1 ? [] : [`${where}: expected one container`];
    const env: Labels = {};
    for (const from of c.envFrom ?? []) {
      const ref = from.configMapRef?.name ?? from.secretRef?.name ?? '';
      const source = (from.configMapRef ? configMaps : secrets).get(ref);
      if (!source) problems.push(`${where}: envFrom ${ref} does not exist`);
      Object.assign(env, source);
    }
    for (const e of c.env ?? []) {
      env[e.name] = e.value ?? '';
      const ref = e.valueFrom?.secretKeyRef;
      if (!(e.name in app.schema)) problems.push(`${where}: ${e.name} is not a variable ${d.metadata.name} reads`);
      if (ref && secrets.get(ref.name)?.[ref.key] === undefined) problems.push(`${where}: no secret key ${ref.key}`);
      if (e.value !== undefined && isSecretVar(e.name)) problems.push(`${where}: ${e.name} must come from a Secret`);
    }
    problems.push(...missing(where, requiredVars(app), Object.keys(env)));
    const listen = listenPort(app, env);
    const listens = listenPorts(app, env).join();
    const ports = (c.ports ?? []).map((p) => p.containerPort).join();
    if (listen !== app.defaultPort) {
      problems.push(`${where}: ${app.portVar}=${listen}, its default is ${app.defaultPort}`);
    }
    if (ports !== listens) problems.push(`${where}: containerPort ${ports}, the app listens on ${listens}`);
    const { type, rollingUpdate } = d.spec.strategy ?? {};
    if (type !== 'RollingUpdate' || rollingUpdate?.maxUnavailable !== 0 || rollingUpdate?.maxSurge !== 1) {
      problems.push(`${where}: strategy must be RollingUpdate with maxUnavailable 0 and maxSurge 1`);
    }
    if (securityContext?.runAsNonRoot !== true) problems.push(`${where}: runAsNonRoot is not set`);
    for (const kind of ['requests', 'limits'] as const) {
      const r = c.resources?.[kind] ?? {};
      if (!r.cpu || !r.memory) problems.push(`${where}: resources.${kind} needs cpu and memory`);
    }
    if (scaled.includes(d.metadata.name) !== (d.spec.replicas === undefined)) {
      problems.push(`${where}: set replicas (at least 2) only when no HorizontalPodAutoscaler owns the count`);
    } else if (d.spec.replicas !== undefined && d.spec.replicas < 2) {
      problems.push(`${where}: 1 replica with a PodDisruptionBudget leaves no pod during a drain`);
    }
    return problems;
  });
}

/** HPAs scale, and PDBs select, existing Deployments; every Deployment has a PDB. */
export function targetProblems(docs: K8sDoc[]): string[] {
  const deployments = ofKind<Deployment>(docs, 'Deployment');
  const pdbs = ofKind<Pdb>(docs, 'PodDisruptionBudget');
  return [
    ...ofKind<Hpa>(docs, 'HorizontalPodAutoscaler')
      .filter(
        (h) =>
          h.spec.scaleTargetRef.kind !== 'Deployment' ||
          !deployments.some((d) => d.metadata.name === h.spec.scaleTargetRef.name),
      )
      .map((h) => `HorizontalPodAutoscaler/${h.metadata.name}: scales no Deployment`),
    ...pdbs
      .filter((p) => !deployments.some((d) => matches(p.spec.selector.matchLabels, d.spec.template.metadata.labels)))
      .map((p) => `PodDisruptionBudget/${p.metadata.name}: selects no Deployment's pods`),
    ...deployments
      .filter((d) => !pdbs.some((p) => matches(p.spec.selector.matchLabels, d.spec.template.metadata.labels)))
      .map((d) => `Deployment/${d.metadata.name}: no PodDisruptionBudget`),
  ];
}

// ---------------------------------------------------------------- docker compose

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; args?: Labels };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { target: number })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  volumes?: (string | { source?: string; target: string })[];
  stop_grace_period?: string;
}
export interface Compose {
  services: Record<string, ComposeService>;
}

export const loadCompose = (file = join(ROOT, 'docker-compose.yml')): Compose =>
  parse(readFileSync(file, 'utf8'), { merge: true }) as Compose;

/** Compose variable substitution with nothing set: `${X:-default}` -> default, `${X}` -> ''. */
export const interpolate = (value: string): string =>
  value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g, (m, _name, def?: string) =>
    m === '$$' ? '$' : (def ?? ''),
  );

export function composeEnv(service: ComposeService): Record<string, string> {
  const raw = service.environment ?? {};
  const entries = Array.isArray(raw)
    ? raw.map((line) => [line.split('=')[0], line.slice(line.indexOf('=') + 1)])
    : Object.entries(raw).map(([k, v]) => [k, v === null ? '' : String(v)]);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v)]));
}

export const dependsOn = (s: ComposeService): string[] =>
  Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});

/** Services that run the platform image are exactly the four apps. */
export function composeApps(compose: Compose): [string, ComposeService][] {
  return Object.entries(compose.services).filter(
    ([, s]) => s.build !== undefined || s.image?.startsWith('payments-platform'),
  );
}

export function publishedTargets(s: ComposeService): number[] {
  return (s.ports ?? []).map((p) =>
    typeof p === 'object' ? p.target : Number(String(p).split('/')[0].split(':').pop()),
  );
}

export const healthcheckPort = (s: ComposeService): number | undefined => {
  const test = Array.isArray(s.healthcheck?.test) ? s.healthcheck.test.join(' ') : (s.healthcheck?.test ?? '');
  const port = /\/\/(?:127\.0\.0\.1|localhost):(\d+)\/health\/ready/.exec(test)?.[1];
  return port ? Number(port) : undefined;
};

/** Databases created by the SQL files mounted into the postgres service's /docker-entrypoint-initdb.d. */
export function initDatabases(compose: Compose): Set<string> {
  const names = new Set<string>();
  for (const s of Object.values(compose.services)) {
    for (const v of s.volumes ?? []) {
      const [source, target] = typeof v === 'string' ? v.split(':') : [v.source ?? '', v.target];
      if (!target?.startsWith('/docker-entrypoint-initdb.d') || !/\.(sql|sh)$/.test(source)) continue;
      const sql = readFileSync(join(ROOT, source), 'utf8');
      for (const m of sql.matchAll(/CREATE\s+DATABASE\s+"?([A-Za-z0-9_]+)"?/gi)) names.add(m[1]);
    }
  }
  return names;
}
