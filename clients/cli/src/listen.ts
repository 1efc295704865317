import { setTimeout as sleep } from 'node:timers/promises';
import { PaymentsApiError, type ListItem } from '../../typescript/src';
import { CliEnv } from './config';
import { forwardEvent, forwardLine } from './forward';

type Event = ListItem<'/v1/events'>;

/**
 * How far back each poll looks before the newest event seen: an event is listed by its creation time, and it
 * may reach the event log a moment after a later one did, so a poll from exactly the newest time would miss it.
 */
const LATE_ARRIVAL_MS = 60_000;

export interface ListenOptions {
  forwardTo: string;
  secret: string;
  intervalMs: number;
  /** Only these event types (all when empty). */
  types: string[];
  signal: AbortSignal;
  print: (line: string) => void;
  warn: (line: string) => void;
}

/**
 * Forwards the events created from now on, oldest first, until `signal` aborts: it polls the event log, so
 * nothing is registered on the server and nothing is left behind when it stops.
 */
export async function listen(env: CliEnv, o: ListenOptions): Promise<void> {
  const seen = new Map<string, number>();
  const newest = await page(env, undefined, 1);
  let floor = newest[0] ? Date.parse(newest[0].createdAt) : undefined;
  if (floor !== undefined)
    for (const e of await all(env, floor - LATE_ARRIVAL_MS)) seen.set(e.id, Date.parse(e.createdAt));
  o.print(`Ready: forwarding events to ${o.forwardTo}. Press Ctrl-C to stop.`);
  while (!o.signal.aborted) {
    try {
      const fresh = (await all(env, floor === undefined ? undefined : floor - LATE_ARRIVAL_MS))
        .filter((e) => !seen.has(e.id))
        .reverse();
      for (const e of fresh) {
        const at = Date.parse(e.createdAt);
        seen.set(e.id, at);
        floor = Math.max(floor ?? at, at);
        if (o.types.length && !o.types.includes(e.type)) continue;
        o.print(forwardLine(e, o.forwardTo, await forwardEvent(o.forwardTo, e, o.secret)));
      }
      if (floor !== undefined) for (const [id, at] of seen) if (at < floor - 2 * LATE_ARRIVAL_MS) seen.delete(id);
    } catch (e) {
      // A refused key will not get better by waiting; anything else (gateway restarting, network) may.
      if (e instanceof PaymentsApiError && (e.status === 401 || e.status === 403)) throw e;
      o.warn(`Could not read events (${(e as Error).message}); trying again`);
    }
    await sleep(o.intervalMs, undefined, { signal: o.signal }).catch(() => undefined);
  }
}

async function page(env: CliEnv, createdFrom: number | undefined, limit: number): Promise<Event[]> {
  const { data, error, response } = await env.client.GET('/v1/events', {
    params: { query: { limit, ...query(env, createdFrom) } },
  });
  if (error !== undefined || !data) throw new PaymentsApiError(response, error);
  // The list's items are catalogue events; the raw route's type names `type` as any string.
  return data as Event[];
}

/** Every event created at or after `createdFrom` (all when undefined), newest first. */
async function all(env: CliEnv, createdFrom: number | undefined): Promise<Event[]> {
  const events: Event[] = [];
  for await (const e of env.client.paginate('/v1/events', { query: query(env, createdFrom) })) events.push(e);
  return events;
}

const query = (env: CliEnv, createdFrom: number | undefined) => ({
  ...(env.merchantCode ? { merchantCode: env.merchantCode } : {}),
  ...(createdFrom === undefined ? {} : { createdFrom: new Date(createdFrom).toISOString() }),
});
