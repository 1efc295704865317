import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APPS,
  Compose,
  composeApps,
  composeEnv,
  Deployment,
  dependsOn,
  deploymentProblems,
  entrypointProblems,
  envProblems,
  healthcheckPort,
  initDatabases,
  isSecretVar,
  K8sDoc,
  KeyValues,
  keyValueProblems,
  kustomizationProblems,
  listenPort,
  listenPorts,
  loadCompose,
  loadK8sDocs,
  missing,
  ofKind,
  probeProblems,
  publishedTargets,
  requiredVars,
  ROOT,
  schemaProblems,
  Service,
  serviceProblems,
  targetProblems,
} from './manifest-checks';
import { EnvSchema } from '@app/config';
import { composeShutdownProblems, k8sShutdownProblems } from './shutdown-checks';
import { egressOf, internetReachers, NetworkPolicy, networkPolicyProblems, PUBLIC_HTTPS } from './policy-checks';

const APP_NAMES = Object.keys(APPS).sort();
// k8s/nats (the NATS servers) has checks of its own: test/deploy/nats-config.spec.ts; k8s/postgres (CloudNativePG
// kinds, which kubernetes-models does not know) too: test/deploy/failover-manifests.spec.ts.
const docs = loadK8sDocs().filter((d) => !d.where.startsWith('k8s/nats/') && !d.where.startsWith('k8s/postgres/'));
const compose = loadCompose();

function composeEnvProblems(c: Compose): string[] {
  return composeApps(c).flatMap(([name, s]) => {
    const app = APPS[name];
    if (!app) return [`services.${name}: runs the platform image but is not one of ${APP_NAMES}`];
    const env = composeEnv(s);
    return [
      ...envProblems(`services.${name}`, env, [app.schema]),
      ...missing(`services.${name}`, requiredVars(app), Object.keys(env)),
    ];
  });
}

function composePortProblems(c: Compose): string[] {
  return composeApps(c).flatMap(([name, s]) => {
    const app = APPS[name];
    const port = app && listenPort(app, composeEnv(s));
    const listens = app ? listenPorts(app, composeEnv(s)) : [];
    const published = publishedTargets(s).filter((p) => !listens.includes(p));
    return [
      ...(app && healthcheckPort(s) !== port
        ? [`services.${name}: healthcheck calls /health/ready on ${healthcheckPort(s)}, the app listens on ${port}`]
        : []),
      ...published.map((p) => `services.${name}: publishes container port ${p}, the app listens on ${port}`),
    ];
  });
}

describe('k8s/', () => {
  const names = (kind: string): string[] =>
    ofKind(docs, kind)
      .map((o) => o.metadata.name)
      .sort();

  it('holds a Deployment, Service and PodDisruptionBudget per app, and HPAs for gateway, payments and webhooks', () => {
    expect(names('Deployment')).toEqual(APP_NAMES);
    expect(names('Service')).toEqual([...APP_NAMES, 'gateway-internal'].sort());
    expect(names('PodDisruptionBudget')).toEqual(APP_NAMES);
    expect(names('HorizontalPodAutoscaler')).toEqual(['gateway', 'payments', 'webhooks']);
    expect(names('ConfigMap')).toHaveLength(1);
    expect(names('Secret')).toEqual(['migrate-secrets', ...APP_NAMES.map((app) => `nats-${app}`), 'platform-secrets']);
    expect(names('Namespace')).toHaveLength(1);
    expect(names('NetworkPolicy')).toEqual([...APP_NAMES, 'allow-dns', 'default-deny', 'migrate'].sort());
    expect(names('ServiceMonitor')).toEqual(['gateway', 'services']);
    expect(names('PrometheusRule')).toEqual(['payments-platform']);
  });

  it('lets only the gateway take ingress from outside, and each app reach DNS, NATS and its own database only', () => {
    expect(networkPolicyProblems(docs)).toEqual([]);
    expect(egressOf(docs).get('billing')).toEqual(new Set(['dns', 'nats', 'database pg-billing']));
    // The pod that faces the internet does not call out to it.
    expect(egressOf(docs).get('gateway')).toEqual(new Set(['dns', 'nats', 'database pg-gateway']));
  });

  it('lets only the payments and webhooks pods reach the internet: HTTPS (443) to public addresses, private ranges closed', () => {
    expect(internetReachers(docs)).toEqual(['payments', 'webhooks']);
    expect(egressOf(docs).get('webhooks')).toEqual(new Set(['dns', 'nats', 'database pg-webhooks', ...PUBLIC_HTTPS]));
    // The payment providers' APIs: 443 to public addresses, plus DNS, NATS and its own database; nothing else.
    expect(egressOf(docs).get('payments')).toEqual(new Set(['dns', 'nats', 'database pg-payments', ...PUBLIC_HTTPS]));
  });

  it("payments' provider egress wider than HTTPS to public addresses is a problem", () => {
    const broken: K8sDoc[] = structuredClone(docs);
    const payments = ofKind<NetworkPolicy>(broken, 'NetworkPolicy').find((p) => p.metadata.name === 'payments')!;
    const providers = payments.spec.egress![2];
    providers.ports!.push({ protocol: 'TCP', port: 80 });
    providers.to![0].ipBlock!.except = providers.to![0].ipBlock!.except!.filter((r) => r !== '169.254.0.0/16');
    expect(networkPolicyProblems(broken)).toEqual([
      'pods of payments: egress to ipBlock 0.0.0.0/0 on 443,80',
      'pods of payments: egress to ipBlock ::/0 on 443,80',
      'pods of payments: cannot reach its public internet (HTTPS)',
      'pods of payments: cannot reach its public internet IPv6 (HTTPS)',
    ]);
  });

  it('validates every object against the Kubernetes schema of its apiVersion and kind', () => {
    expect(schemaProblems(docs)).toEqual([]);
  }, 30_000);

  it('lists every manifest in the kustomization, and only files that exist', () => {
    expect(existsSync(join(ROOT, 'k8s/base/kustomization.yaml'))).toBe(true);
    expect(kustomizationProblems()).toEqual([]);
  });

  it('has Services that select pods and target their container ports', () => {
    expect(serviceProblems(docs)).toEqual([]);
  });

  it('runs the migrations as a Job of their own, and the apps only check that none is pending', () => {
    const [job] = ofKind<Deployment>(docs, 'Job');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'dist/apps/migrate/src/main.js']);
    expect(existsSync(join(ROOT, 'apps/migrate/src/main.ts'))).toBe(true);
    const [config] = ofKind<KeyValues>(docs, 'ConfigMap');
    expect(config.data?.MIGRATIONS).toBe('check');
  });

  it('routes the public Service to the API port only, and the internal port only through gateway-internal', () => {
    const service = (name: string) => ofKind<Service>(docs, 'Service').find((x) => x.metadata.name === name)!;
    const targets = (name: string) => service(name).spec.ports.map((p) => String(p.targetPort));
    expect(targets('gateway')).toEqual(['http']);
    expect(targets('gateway-internal')).toEqual(['internal']);
    const gateway = ofKind<Deployment>(docs, 'Deployment').find((d) => d.metadata.name === 'gateway')!;
    const internal = gateway.spec.template.spec.containers[0].ports!.find((p) => p.name === 'internal')!;
    expect(internal.containerPort).toBe(listenPorts(APPS.gateway, {})[1]);
    // Prometheus scrapes /metrics where it answers: the internal port.
    expect(gateway.spec.template.metadata.annotations?.['prometheus.io/port']).toBe(String(internal.containerPort));
  });

  it('probes declared container ports on the health paths', () => {
    expect(probeProblems(docs)).toEqual([]);
  });

  it('puts only app variables, with valid values, in the ConfigMap and the Secret; no secret in the ConfigMap', () => {
    expect(keyValueProblems(docs)).toEqual([]);
  });

  it('runs each app on its configured port with its required variables, its own secrets and a safe rollout', () => {
    expect(deploymentProblems(docs)).toEqual([]);
  });

  it('scales and protects existing Deployments', () => {
    expect(targetProblems(docs)).toEqual([]);
  });

  it('pauses in preStop, grants terminationGracePeriodSeconds ≥ the pause + SHUTDOWN_TIMEOUT_MS + a margin, and SHUTDOWN_TIMEOUT_MS outlasts the work timeouts', () => {
    expect(k8sShutdownProblems(docs)).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  it('runs the five apps', () => {
    expect(
      composeApps(compose)
        .map(([name]) => name)
        .sort(),
    ).toEqual(APP_NAMES);
  });

  it('depends only on existing services, waiting for their healthchecks', () => {
    const problems = Object.entries(compose.services).flatMap(([name, s]) =>
      dependsOn(s).flatMap((dep) => {
        const target = compose.services[dep];
        if (!target) return [`services.${name}: depends on unknown service ${dep}`];
        const condition = Array.isArray(s.depends_on) ? undefined : s.depends_on?.[dep]?.condition;
        if (condition !== 'service_healthy') return [`services.${name}: ${dep} should be service_healthy`];
        return target.healthcheck ? [] : [`services.${name}: ${dep} has no healthcheck`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("sets only each app's own variables, with valid values, and every required connection variable", () => {
    expect(composeEnvProblems(compose)).toEqual([]);
  });

  it('checks health and publishes on the ports the apps listen on; only the gateway is published', () => {
    expect(composePortProblems(compose)).toEqual([]);
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['gateway']);
    // The internal port (admin API, /metrics) only on the host's loopback.
    expect(compose.services.gateway.ports).toEqual(['3000:3000', '127.0.0.1:3100:3100']);
  });

  it('points each app at the postgres and nats services, in a database the init script creates', () => {
    const created = initDatabases(compose);
    expect(created.size).toBeGreaterThan(0);
    const imageOf = (host: string): string => compose.services[host]?.image ?? '(no such service)';
    const problems = composeApps(compose).flatMap(([name, s]) => {
      const app = APPS[name];
      const env = composeEnv(s);
      const db = new URL(env[app.dbVar]);
      const expectedDb = new URL(String(app.schema[app.dbVar].parse(undefined, app.dbVar, {}))).pathname;
      return [
        ...(imageOf(db.hostname).startsWith('postgres:')
          ? []
          : [`services.${name}: ${app.dbVar} host is not postgres`]),
        ...(created.has(db.pathname.slice(1)) ? [] : [`services.${name}: database ${db.pathname} is never created`]),
        ...(db.pathname === expectedDb ? [] : [`services.${name}: database ${db.pathname}, expected ${expectedDb}`]),
        ...(imageOf(new URL(env.NATS_URL).hostname).startsWith('nats:') ? [] : [`services.${name}: NATS_URL host`]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('waits SHUTDOWN_TIMEOUT_MS and a margin before it kills a stopping app', () => {
    expect(composeShutdownProblems(compose)).toEqual([]);
  });

  it('runs nats with JetStream on a volume and monitoring for its healthcheck', () => {
    const nats = compose.services.nats;
    expect(nats.command).toEqual(expect.arrayContaining(['-js', '-sd', '/data', '-m', '8222']));
    expect(String(nats.healthcheck?.test)).toContain(':8222/healthz');
    expect(nats.volumes).toEqual([expect.stringMatching(/^\w+:\/data$/)]);
  });
});

describe('public secrets', () => {
  // Each secret value the repository publishes, with the schema of an app that reads it.
  const published = (where: string, env: Record<string, string>, schemas: EnvSchema[]) =>
    Object.entries(env)
      .filter(([name]) => isSecretVar(name))
      .flatMap(([name, value]) =>
        schemas.filter((s) => s[name]).map((schema) => ({ where: `${where} ${name}`, name, value, schema })),
      );
  const composeSecrets = composeApps(compose).flatMap(([name, s]) =>
    published(`services.${name}`, composeEnv(s), [APPS[name].schema]),
  );
  const k8sSecrets = ofKind<KeyValues>(docs, 'Secret').flatMap((secret) =>
    published(
      `Secret/${secret.metadata.name}`,
      { ...secret.data, ...secret.stringData },
      Object.values(APPS).map((a) => a.schema),
    ),
  );
  const refusedInProduction = (list: typeof composeSecrets): string[] =>
    list.flatMap(({ where, name, value, schema }) => {
      if (name.endsWith('_DATABASE_URL') && !new URL(value).password) return [];
      try {
        schema[name].parse(value, name, { NODE_ENV: 'production' });
        return [`${where} would pass as a production secret`];
      } catch (e) {
        return (e as Error).message.startsWith(name) ? [] : [`${where}: ${(e as Error).message}`];
      }
    });

  it('docker-compose runs as development, with secrets a production start refuses', () => {
    for (const [name, s] of composeApps(compose)) expect([name, composeEnv(s).NODE_ENV]).toEqual([name, 'development']);
    expect(composeSecrets.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'ADMIN_TOKEN',
        'SDK_TOKEN_SECRET',
        'VAULT_KEYS',
        'GATEWAY_SECRET_KEYS',
        'WEBHOOK_SECRET_KEYS',
      ]),
    );
    expect(refusedInProduction(composeSecrets)).toEqual([]);
  });

  it("the k8s example Secret's placeholders are refused in production", () => {
    expect(k8sSecrets.length).toBeGreaterThanOrEqual(8);
    expect(refusedInProduction(k8sSecrets)).toEqual([]);
  });

  it('self-check: a real secret in a manifest would pass', () => {
    const real = composeSecrets.map((s) =>
      s.name === 'ADMIN_TOKEN' ? { ...s, value: randomBytes(32).toString('base64') } : s,
    );
    expect(refusedInProduction(real)).toEqual(['services.gateway ADMIN_TOKEN would pass as a production secret']);
  });
});

describe('entrypoints', () => {
  it('each compose service and Deployment runs its own app, built from apps/<app>/src/main.ts', () => {
    const problems = [
      ...composeApps(compose).map(([name, s]) => {
        const build = typeof s.build === 'object' ? s.build.args?.APP : undefined;
        return entrypointProblems(`services.${name}`, name, s.command ?? `dist/apps/${build}/src/main.js`);
      }),
      ...ofKind<Deployment>(docs, 'Deployment').map((d) =>
        entrypointProblems(
          `Deployment/${d.metadata.name}`,
          d.metadata.name,
          d.spec.template.spec.containers[0].command,
        ),
      ),
    ].flat();
    expect(problems).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages[stages.length - 1];

  it('builds in stages and runs production dependencies as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)-(slim|alpine)$|^FROM node:(22|24)-(slim|alpine)/m);
    expect(dockerfile).toMatch(/RUN .*npm ci(?! --omit)/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    const depsStage = /COPY --from=(\S+) \/app\/node_modules/.exec(runtime)?.[1];
    expect(stages.find((s) => s.includes(` AS ${depsStage}`))).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/^ENV NODE_ENV=production$/m);
    expect(runtime).toMatch(/^USER (?!root\b|0\b)\S+/m);
    expect(runtime).not.toMatch(/^COPY (?!--from)(?!package\.json).*/m);
  });

  it('runs every app with the node flags npm start and the bench use (scripts/app-node-options.js)', () => {
    const { APP_NODE_OPTIONS } = require('../../scripts/app-node-options') as { APP_NODE_OPTIONS: string };
    expect(runtime).toContain(`ENV NODE_OPTIONS=${APP_NODE_OPTIONS}\n`);
    for (const [, s] of composeApps(compose)) expect(JSON.stringify(s.environment ?? {})).not.toContain('NODE_OPTIONS');
  });

  it('is what compose builds, with a .dockerignore that keeps node_modules and dist out', () => {
    for (const [, s] of composeApps(compose)) {
      const build = typeof s.build === 'string' ? { context: s.build } : (s.build ?? {});
      expect(join(build.context ?? '.', build.dockerfile ?? 'Dockerfile')).toBe('Dockerfile');
    }
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'dist']));
  });
});

describe('self-checks: the validators catch mistakes', () => {
  it('a misspelt, a missing and a foreign variable in compose, and a healthcheck on the wrong port', () => {
    const broken = structuredClone(compose);
    const env = broken.services.payments.environment as Record<string, string>;
    env.NATS_ULR = env.NATS_URL;
    delete env.NATS_URL;
    env.ADMIN_TOKEN = 'x';
    broken.services.billing.healthcheck = {
      test: ['CMD', 'node', '-e', "fetch('http://127.0.0.1:3009/health/ready')"],
    };
    expect(composeEnvProblems(broken)).toEqual([
      'services.payments: NATS_ULR is not a variable the app reads',
      'services.payments: ADMIN_TOKEN is not a variable the app reads',
      'services.payments: NATS_URL is not set',
    ]);
    expect(composePortProblems(broken)).toEqual([
      'services.billing: healthcheck calls /health/ready on 3009, the app listens on 3003',
    ]);
  });

  it('an unknown kind and a field of the wrong type', () => {
    const deployment = structuredClone(ofKind<Deployment>(docs, 'Deployment')[0]);
    deployment.spec.template.spec.containers[0].ports = [{ containerPort: 'http' as unknown as number }];
    const problems = schemaProblems([
      { where: 'typo', obj: { ...deployment, kind: 'Deploymnet' } },
      { where: 'bad-port', obj: deployment },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^typo: unknown kind apps\/v1 Deploymnet/),
      expect.stringMatching(/^bad-port: .*containerPort must be integer/),
    ]);
  }, 30_000);

  it('a Service selecting nothing, a probe on an undeclared port, a wrong containerPort, a foreign variable', () => {
    const broken: K8sDoc[] = structuredClone(docs);
    const service = ofKind<Service>(broken, 'Service').find((s) => s.metadata.name === 'billing')!;
    service.spec.selector = { 'app.kubernetes.io/name': 'biling' };
    const deployment = ofKind<Deployment>(broken, 'Deployment').find((d) => d.metadata.name === 'payments')!;
    const container = deployment.spec.template.spec.containers[0];
    container.readinessProbe = { httpGet: { path: '/health/ready', port: 'metrics' } };
    container.ports = [{ name: 'http', containerPort: 3009 }];
    expect(serviceProblems(broken)).toEqual(["Service/billing: selector matches no Deployment's pods"]);
    expect(probeProblems(broken)).toEqual([
      'Deployment/payments payments readinessProbe: port metrics is not a declared containerPort',
    ]);
    const gateway = ofKind<Deployment>(broken, 'Deployment').find((d) => d.metadata.name === 'gateway')!;
    gateway.spec.template.spec.containers[0].env!.push({ name: 'VAULT_KEYS', value: 'k1:x' });
    expect(deploymentProblems(broken)).toEqual([
      'Deployment/gateway: VAULT_KEYS is not a variable gateway reads',
      'Deployment/gateway: VAULT_KEYS must come from a Secret',
      'Deployment/payments: containerPort 3009, the app listens on 3001',
    ]);
  });

  it('a shutdown budget that the grace period does not cover, a missing preStop pause, a short compose grace', () => {
    const broken: K8sDoc[] = structuredClone(docs);
    ofKind<KeyValues>(broken, 'ConfigMap')[0].data!.SHUTDOWN_TIMEOUT_MS = '40000';
    ofKind<KeyValues>(broken, 'ConfigMap')[0].data!.WEBHOOK_TIMEOUT_MS = '45000';
    const billing = ofKind<Deployment>(broken, 'Deployment').find((d) => d.metadata.name === 'billing')!;
    delete billing.spec.template.spec.containers[0].lifecycle;
    expect(k8sShutdownProblems(broken)).toEqual([
      'Deployment/billing: needs a preStop pause (sleep) for endpoint propagation',
      'Deployment/gateway: terminationGracePeriodSeconds 30 < preStop 5 s + SHUTDOWN_TIMEOUT_MS 40 s + 2 s',
      'Deployment/payment-links: terminationGracePeriodSeconds 30 < preStop 5 s + SHUTDOWN_TIMEOUT_MS 40 s + 2 s',
      'Deployment/payments: terminationGracePeriodSeconds 30 < preStop 5 s + SHUTDOWN_TIMEOUT_MS 40 s + 2 s',
      'Deployment/webhooks: SHUTDOWN_TIMEOUT_MS must exceed WEBHOOK_TIMEOUT_MS (45000)',
      'Deployment/webhooks: terminationGracePeriodSeconds 30 < preStop 5 s + SHUTDOWN_TIMEOUT_MS 40 s + 2 s',
    ]);
    const shortCompose = structuredClone(compose);
    delete shortCompose.services.gateway.stop_grace_period;
    expect(composeShutdownProblems(shortCompose)).toEqual(['services.gateway: stop_grace_period 10 s < 27 s']);
    const noDelay = structuredClone(compose);
    delete (noDelay.services.gateway.environment as Record<string, string>).SHUTDOWN_DELAY_MS;
    expect(composeShutdownProblems(noDelay)).toEqual([
      'services.gateway: set SHUTDOWN_DELAY_MS so a balancer sees it unready before it closes its listener',
    ]);
  });

  it('a service open to all, a service reaching another database, a missing deny-all, an internal port opened wide', () => {
    const broken: K8sDoc[] = structuredClone(docs);
    const policy = (name: string) =>
      ofKind<NetworkPolicy>(broken, 'NetworkPolicy').find((p) => p.metadata.name === name)!;
    policy('payments').spec.ingress!.push({ ports: [{ protocol: 'TCP', port: 'http' }] });
    policy('billing').spec.egress![1].to![0].podSelector!.matchLabels!['cnpg.io/cluster'] = 'pg-payments';
    policy('default-deny').spec.podSelector = { matchLabels: { 'app.kubernetes.io/name': 'gateway' } };
    policy('gateway').spec.ingress![1].from!.push({ namespaceSelector: {} });
    expect(networkPolicyProblems(broken)).toEqual([
      'pods of billing: no deny-all policy (Ingress and Egress) selects them',
      'pods of billing: egress to database pg-payments',
      'pods of billing: cannot reach its database pg-billing',
      'pods of gateway: ingress from anywhere on 3100',
      'pods of payment-links: no deny-all policy (Ingress and Egress) selects them',
      'pods of payments: no deny-all policy (Ingress and Egress) selects them',
      'pods of payments: ingress from anywhere on 3001',
      'pods of webhooks: no deny-all policy (Ingress and Egress) selects them',
      'pods of migrate: no deny-all policy (Ingress and Egress) selects them',
    ]);
  });

  it('the internet opened to the gateway or a service, or wider than HTTPS to public addresses for webhooks', () => {
    const broken: K8sDoc[] = structuredClone(docs);
    const policy = (name: string) =>
      ofKind<NetworkPolicy>(broken, 'NetworkPolicy').find((p) => p.metadata.name === name)!;
    const internet = () => structuredClone(policy('webhooks').spec.egress![2]);
    // The webhooks rule copied to the gateway; everywhere on any port (no peers) for billing; a narrow public
    // block for payments; webhooks on port 80 too, and its IPv6 block without the unique-local range.
    policy('gateway').spec.egress!.push(internet());
    policy('billing').spec.egress!.push({ to: [] });
    policy('payments').spec.egress!.push({ to: [{ ipBlock: { cidr: '203.0.113.0/24' } }] });
    const v6 = internet();
    v6.to = [{ ipBlock: { cidr: '::/0', except: ['::1/128', 'fe80::/10'] } }];
    policy('webhooks').spec.egress![2].ports!.push({ protocol: 'TCP', port: 80 });
    policy('webhooks').spec.egress!.push(v6);
    expect(internetReachers(broken)).toEqual(['billing', 'gateway', 'payments', 'webhooks']);
    // payments reaches the internet anyway (the providers): the narrow block is the problem.
    expect(networkPolicyProblems(broken)).toEqual([
      'pods of billing: egress to ipBlock anywhere on every port',
      'pods of gateway: egress to public internet (HTTPS)',
      'pods of gateway: egress to public internet IPv6 (HTTPS)',
      'pods of payments: egress to ipBlock 203.0.113.0/24 on every port',
      'pods of webhooks: egress to ipBlock 0.0.0.0/0 on 443,80',
      'pods of webhooks: egress to ipBlock ::/0 on 443,80',
      'pods of webhooks: egress to ipBlock ::/0 on 443',
      'pods of webhooks: cannot reach its public internet (HTTPS)',
      'pods of webhooks: cannot reach its public internet IPv6 (HTTPS)',
    ]);
  });

  it('a misspelt key and a secret in the ConfigMap', () => {
    const broken: K8sDoc[] = structuredClone(docs);
    const configMap = ofKind<KeyValues>(broken, 'ConfigMap')[0];
    configMap.data = { ...configMap.data, NATS_ULR: 'nats://nats:4222', ADMIN_TOKEN: 'x' };
    expect(keyValueProblems(broken)).toEqual([
      'ConfigMap/platform-config: NATS_ULR is not a variable the app reads',
      'ConfigMap/platform-config: ADMIN_TOKEN is too weak for production: it needs at least 32 random bytes (e.g. openssl rand -base64 32)',
      'ConfigMap/platform-config: ADMIN_TOKEN is a secret',
    ]);
  });
});
