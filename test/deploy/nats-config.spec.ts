import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nkeys } from 'nats';
import { parse } from 'yaml';
import {
  BillingSubjects,
  COMMAND_CALLERS,
  COMMAND_SUBJECTS,
  commandServiceOf,
  CommandSubject,
  NATS_APPS,
  NatsApp,
  PaymentLinksSubjects,
  PaymentsExtrasSubjects,
  PaymentsSubjects,
  WebhooksSubjects,
} from '@app/contracts';
import {
  composeApps,
  composeEnv,
  Deployment,
  K8S_DIR,
  KeyValues,
  loadCompose,
  loadK8sDocs,
  ofKind,
  schemaProblems,
  Service,
} from './manifest-checks';

const ROOT = join(__dirname, '../..');
const { OUTPUT, render, nkeyVariableOf } = require('../../scripts/nats-config.js') as {
  OUTPUT: string;
  render: (load: (mod: string) => Record<string, unknown>) => string;
  nkeyVariableOf: (app: string) => string;
};

const GROUPS: Record<string, Record<string, string>> = {
  PaymentsSubjects,
  PaymentsExtrasSubjects,
  PaymentLinksSubjects,
  BillingSubjects,
  WebhooksSubjects,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** The command subjects an app's code names outside its @MessagePattern handlers: the ones it sends. */
function commandsSentBy(app: NatsApp): CommandSubject[] {
  const sent = new Set<CommandSubject>();
  for (const source of sources(join(ROOT, 'apps', app, 'src'))) {
    for (const line of source.split('\n')) {
      if (line.includes('@MessagePattern')) continue;
      for (const m of line.matchAll(/\b(\w+Subjects)\.(\w+)/g)) {
        const subject = GROUPS[m[1]]?.[m[2]] as CommandSubject | undefined;
        if (subject) sent.add(subject);
      }
    }
  }
  return [...sent].sort();
}

describe('NATS permissions (k8s/nats/authorization.conf)', () => {
  it('are what scripts/nats-config.js generates from libs/contracts (run it after changing a subject)', () => {
    const generated = render((mod) => require(join(ROOT, mod)));
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generated);
  });

  it('cover every group of command subjects and every subject a handler serves', () => {
    const contracts = readFileSync(join(ROOT, 'libs/contracts/src/subjects.ts'), 'utf8');
    const groups = [...contracts.matchAll(/export const (\w+Subjects) = \{/g)].map((m) => m[1]);
    expect(groups.filter((g) => g !== 'GatewaySubjects').sort()).toEqual(Object.keys(GROUPS).sort());
    const served = NATS_APPS.flatMap((app) =>
      sources(join(ROOT, 'apps', app, 'src')).flatMap((source) =>
        [...source.matchAll(/@MessagePattern\((\w+)\.(\w+)\)/g)].map((m) => ({
          app,
          subject: (GROUPS[m[1]]?.[m[2]] ?? m[0]) as CommandSubject,
        })),
      ),
    );
    expect(served.length).toBeGreaterThan(40);
    const strays = served.filter((s) => !COMMAND_SUBJECTS.includes(s.subject) || commandServiceOf(s.subject) !== s.app);
    expect(strays).toEqual([]);
  });

  it('let each app send the commands its code sends', () => {
    for (const app of NATS_APPS) {
      const undeclared = commandsSentBy(app).filter((s) => !COMMAND_CALLERS[s].includes(app));
      expect([app, undeclared]).toEqual([app, []]);
    }
  });

  it('grant no command to an app that never sends it (the gateway reaches ping and clock advance by service)', () => {
    const indirect = new Set<string>([
      PaymentsSubjects.ping,
      PaymentLinksSubjects.ping,
      BillingSubjects.ping,
      WebhooksSubjects.ping,
      PaymentsSubjects.clockAdvanced,
      PaymentLinksSubjects.clockAdvanced,
      BillingSubjects.clockAdvanced,
    ]);
    for (const app of NATS_APPS) {
      const sent = new Set(commandsSentBy(app));
      const unused = COMMAND_SUBJECTS.filter(
        (s) => COMMAND_CALLERS[s].includes(app) && !sent.has(s) && !(app === 'gateway' && indirect.has(s)),
      );
      expect([app, unused]).toEqual([app, []]);
    }
  });

  it('keep every command away from its own service and from the apps that do not call it', () => {
    for (const subject of COMMAND_SUBJECTS) {
      expect(COMMAND_CALLERS[subject]).not.toContain(commandServiceOf(subject));
    }
    expect(COMMAND_CALLERS[PaymentsSubjects.refund]).toEqual(['gateway']);
    expect(COMMAND_CALLERS[PaymentsSubjects.capture]).toEqual(['gateway']);
  });
});

interface StatefulSet extends Deployment {
  spec: Deployment['spec'] & { serviceName: string };
}
interface PodVolumes {
  volumes?: Array<{ name: string; configMap?: { name: string }; secret?: { secretName: string } }>;
  containers: Array<{
    args?: string[];
    env?: Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
    volumeMounts?: Array<{ name: string; mountPath: string }>;
  }>;
}

describe('NATS in k8s/nats and docker-compose.yml', () => {
  const NATS_DIR = join(K8S_DIR, 'nats');
  const natsDocs = loadK8sDocs(NATS_DIR);
  const appDocs = loadK8sDocs(join(K8S_DIR, 'base'));
  const secretValues = (name: string) => {
    const secret = ofKind<KeyValues>([...natsDocs, ...appDocs], 'Secret').find((x) => x.metadata.name === name);
    return { ...secret?.data, ...secret?.stringData };
  };

  it('validates every object of k8s/nats against the Kubernetes schemas', () => {
    expect(schemaProblems(natsDocs)).toEqual([]);
  }, 30_000);

  it("runs the servers with the generated permissions and every app's public nkey from a Secret", () => {
    const kustomization = parse(readFileSync(join(NATS_DIR, 'kustomization.yaml'), 'utf8')) as {
      configMapGenerator: Array<{ name: string; files: string[] }>;
    };
    const generator = kustomization.configMapGenerator.find((g) => g.name === 'nats-config')!;
    expect(generator.files.map((f) => join(NATS_DIR, f))).toEqual(expect.arrayContaining([OUTPUT]));
    expect(readFileSync(join(NATS_DIR, 'nats.conf'), 'utf8')).toMatch(/^include \.\/authorization\.conf$/m);

    const [nats] = ofKind<StatefulSet>(natsDocs, 'StatefulSet');
    const pod = nats.spec.template.spec as unknown as PodVolumes;
    const env = pod.containers[0].env ?? [];
    for (const app of NATS_APPS) {
      const ref = env.find((e) => e.name === nkeyVariableOf(app))?.valueFrom?.secretKeyRef;
      expect([app, ref && secretValues(ref.name)[ref.key] !== undefined]).toEqual([app, true]);
    }
    const mounted = (volume: string) => pod.containers[0].volumeMounts?.find((m) => m.name === volume)?.mountPath;
    expect(pod.volumes?.find((v) => v.configMap?.name === 'nats-config')?.name).toBeDefined();
    expect(pod.containers[0].args).toEqual(['-c', `${mounted('config')}/nats.conf`]);
    expect(pod.volumes?.find((v) => v.name === 'tls')?.secret?.secretName).toBe('nats-server-tls');
  });

  it('connects every app with TLS to the nats Service, verifying it with the mounted CA, with its own seed', () => {
    const [config] = ofKind<KeyValues>(appDocs, 'ConfigMap');
    const url = new URL(config.data!.NATS_URL);
    expect(url.protocol).toBe('tls:');
    const service = ofKind<Service>(natsDocs, 'Service').find((x) => x.metadata.name === url.hostname);
    expect(service?.spec.ports.map((p) => p.port)).toContain(Number(url.port));
    for (const d of ofKind<Deployment>(appDocs, 'Deployment')) {
      const pod = d.spec.template.spec as unknown as PodVolumes;
      const ref = pod.containers[0].env?.find((e) => e.name === 'NATS_NKEY_SEED')?.valueFrom?.secretKeyRef;
      expect([d.metadata.name, ref?.name]).toEqual([d.metadata.name, `nats-${d.metadata.name}`]);
      const caVolume = pod.volumes?.find((v) => v.configMap?.name === 'nats-ca')?.name;
      const mountPath = pod.containers[0].volumeMounts?.find((m) => m.name === caVolume)?.mountPath;
      expect([d.metadata.name, mountPath]).toEqual([d.metadata.name, dirname(config.data!.NATS_CA_FILE)]);
    }
  });

  it("compose: the server knows each app's development public key, mounts the generated permissions", () => {
    const compose = loadCompose() as ReturnType<typeof loadCompose> & {
      configs: Record<string, { file: string }>;
    };
    const server = composeEnv(compose.services.nats);
    for (const [app, service] of composeApps(compose)) {
      const seed = composeEnv(service).NATS_NKEY_SEED;
      const publicKey = nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey();
      expect([app, server[nkeyVariableOf(app)]]).toEqual([app, publicKey]);
    }
    expect(Object.values(compose.configs).map((c) => join(ROOT, c.file))).toContain(OUTPUT);
  });
});
