import { unwrap } from '../../typescript/src';
import { CliEnv, CommandFailed, UsageError } from './config';
import { forwardEvent, forwardLine } from './forward';

export interface ListOptions {
  limit: number;
  type?: string;
  json: boolean;
}

/** The newest events, one line each (or the JSON the API answers). */
export async function listEvents(env: CliEnv, o: ListOptions): Promise<string[]> {
  const events = await unwrap(
    env.client.GET('/v1/events', {
      params: {
        query: {
          limit: o.limit,
          ...(o.type ? { type: o.type as never } : {}),
          ...(env.merchantCode ? { merchantCode: env.merchantCode } : {}),
        },
      },
    }),
  );
  if (o.json) return [JSON.stringify(events, null, 2)];
  return events.map((e) => `${e.createdAt}  ${e.type.padEnd(24)} ${e.id}`);
}

export interface ResendOptions {
  /** Ask the platform to send its delivery of the event to this endpoint again. */
  webhookEndpoint?: string;
  /** Or post the event here, signed with `secret`, as `listen` does. */
  forwardTo?: string;
  /** From PAYMENTS_WEBHOOK_SECRET or `--secret-file`, else the one the last `listen` made (secret-file.ts). */
  secret?: string;
}

export async function resendEvent(env: CliEnv, id: string | undefined, o: ResendOptions): Promise<string[]> {
  if (!id) throw new UsageError('events resend needs an event id');
  if (!o.webhookEndpoint === !o.forwardTo) {
    throw new UsageError('events resend needs one of --webhook-endpoint <id> or --forward-to <url>');
  }
  if (o.forwardTo) {
    if (!o.secret) {
      throw new UsageError(
        '--forward-to needs the secret your receiver checks: set PAYMENTS_WEBHOOK_SECRET or pass --secret-file ' +
          '<path>; without either, resend signs with the secret the last `payments listen` printed, and none was kept',
      );
    }
    const event = await unwrap(
      env.client.GET('/v1/events/{id}', {
        params: { path: { id }, query: env.merchantCode ? { merchantCode: env.merchantCode } : {} },
      }),
    );
    return [forwardLine(event, o.forwardTo, await forwardEvent(o.forwardTo, event, o.secret))];
  }
  const endpoint = o.webhookEndpoint as string;
  const scope = env.merchantCode ? { merchantCode: env.merchantCode } : {};
  for await (const d of env.client.paginate('/v1/webhook-endpoint/{id}/deliveries', {
    path: { id: endpoint },
    query: scope,
  })) {
    if (d.eventId !== id) continue;
    const again = await unwrap(
      env.client.POST('/v1/webhook-endpoint/{id}/deliveries/{deliveryId}/resend', {
        params: { path: { id: endpoint, deliveryId: d.id } },
        body: scope,
      }),
    );
    return [`${again.eventType} ${id} queued again for ${endpoint}: try ${again.attempt}, ${again.status}`];
  }
  throw new CommandFailed(`Endpoint ${endpoint} has no delivery of event ${id}`);
}
