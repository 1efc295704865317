/**
 * The shutdown budget of the deployment files: an app gets SIGTERM after the preStop pause and may take up
 * to SHUTDOWN_TIMEOUT_MS to finish what it holds; the orchestrator must not SIGKILL it before that. Each
 * check returns its problems, empty when all is well.
 */
import { APPS, Compose, composeApps, composeEnv, Deployment, K8sDoc, KeyValues, ofKind } from './manifest-checks';

/** Seconds left for the process to exit and flush its logs after SHUTDOWN_TIMEOUT_MS. */
export const EXIT_MARGIN_SECONDS = 2;

const shutdownSeconds = (env: Record<string, string | undefined>): number => {
  const ms = APPS.gateway.schema.SHUTDOWN_TIMEOUT_MS.parse(env.SHUTDOWN_TIMEOUT_MS, 'SHUTDOWN_TIMEOUT_MS', {});
  return Number(ms) / 1000;
};

/** The longest a unit of work in hand may take (a request, an acquirer call, a webhook try, billing's call to payments): stopping waits for it. */
const WORK_TIMEOUTS = ['RPC_TIMEOUT_MS', 'ACQUIRER_TIMEOUT_MS', 'WEBHOOK_TIMEOUT_MS', 'PAYMENTS_RPC_TIMEOUT_MS'];

/** SHUTDOWN_TIMEOUT_MS outlasts every timeout of the work an app finishes while it stops. */
function workProblems(where: string, app: string, env: Record<string, string | undefined>): string[] {
  const schema = APPS[app]?.schema ?? {};
  return WORK_TIMEOUTS.filter((name) => schema[name]).flatMap((name) => {
    const ms = Number(schema[name].parse(env[name], name, {}));
    return ms < shutdownSeconds(env) * 1000 ? [] : [`${where}: SHUTDOWN_TIMEOUT_MS must exceed ${name} (${ms})`];
  });
}

/** The gateway's SHUTDOWN_DELAY_MS in seconds: how long it serves unready after the signal (0 for the services). */
const delaySeconds = (app: string, env: Record<string, string | undefined>): number => {
  const spec = APPS[app]?.schema.SHUTDOWN_DELAY_MS;
  return spec ? Number(spec.parse(env.SHUTDOWN_DELAY_MS, 'SHUTDOWN_DELAY_MS', {})) / 1000 : 0;
};

/** `sleep N` as a preStop exec command, or the native sleep action: how long endpoints get to drop the pod. */
function preStopSeconds(d: Deployment): number | undefined {
  const preStop = d.spec.template.spec.containers[0].lifecycle?.preStop;
  if (preStop?.sleep?.seconds !== undefined) return preStop.sleep.seconds;
  const command = preStop?.exec?.command?.join(' ') ?? '';
  const m = /^(?:\/bin\/)?sleep (\d+)$/.exec(command);
  return m ? Number(m[1]) : undefined;
}

/**
 * Every Deployment pauses in preStop (so endpoints drop the pod before the app stops taking connections),
 * grants terminationGracePeriodSeconds ≥ preStop + SHUTDOWN_TIMEOUT_MS + a margin to exit, and gives the
 * work in hand (SHUTDOWN_TIMEOUT_MS > its timeouts) the time to finish.
 */
export function k8sShutdownProblems(docs: K8sDoc[]): string[] {
  const configMaps = new Map(ofKind<KeyValues>(docs, 'ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]));
  return ofKind<Deployment>(docs, 'Deployment').flatMap((d) => {
    const where = `Deployment/${d.metadata.name}`;
    const c = d.spec.template.spec.containers[0];
    const env: Record<string, string | undefined> = {};
    for (const from of c.envFrom ?? []) Object.assign(env, configMaps.get(from.configMapRef?.name ?? ''));
    for (const e of c.env ?? []) env[e.name] = e.value;
    const work = workProblems(where, d.metadata.name, env);
    const pause = preStopSeconds(d);
    if (pause === undefined || pause < 1) {
      return [...work, `${where}: needs a preStop pause (sleep) for endpoint propagation`];
    }
    const grace = d.spec.template.spec.terminationGracePeriodSeconds ?? 30;
    const needed = pause + delaySeconds(d.metadata.name, env) + shutdownSeconds(env) + EXIT_MARGIN_SECONDS;
    return grace >= needed
      ? work
      : [
          ...work,
          `${where}: terminationGracePeriodSeconds ${grace} < preStop ${pause} s + SHUTDOWN_TIMEOUT_MS ${shutdownSeconds(env)} s + ${EXIT_MARGIN_SECONDS} s`,
        ];
  });
}

/** Compose's `stop_grace_period` (10 s when unset) as seconds: "25s", "1m30s". */
function durationSeconds(value: string | undefined): number {
  if (value === undefined) return 10;
  let seconds = 0;
  for (const [, n, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    seconds += Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit as 'ms' | 's' | 'm' | 'h'];
  }
  return seconds;
}

/**
 * `docker compose stop` waits stop_grace_period before SIGKILL: at least SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS
 * + a margin. Nothing pauses before compose's SIGTERM, so the gateway must pause itself (SHUTDOWN_DELAY_MS).
 */
export function composeShutdownProblems(compose: Compose): string[] {
  return composeApps(compose).flatMap(([name, s]) => {
    const env = composeEnv(s);
    const grace = durationSeconds(s.stop_grace_period);
    const needed = delaySeconds(name, env) + shutdownSeconds(env) + EXIT_MARGIN_SECONDS;
    const pause =
      name === 'gateway' && delaySeconds(name, env) < 1
        ? [`services.${name}: set SHUTDOWN_DELAY_MS so a balancer sees it unready before it closes its listener`]
        : [];
    return [
      ...workProblems(`services.${name}`, name, env),
      ...pause,
      ...(grace >= needed ? [] : [`services.${name}: stop_grace_period ${grace} s < ${needed} s`]),
    ];
  });
}
