import { useCan, useWorkspace } from '../context';
import { newIdempotencyKey } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import { ConfirmButton } from '../ui';

/** What a delivery row needs to name its event and object and to offer a resend. */
export interface DeliveryRow {
  id: string;
  eventId: string;
  eventType: string;
  object: { type: string; id: string } | null;
  resendable: boolean;
  deliveryStatus: string;
}

/** The dashboard page of an event's object, where there is one. */
function objectHref(o: { type: string; id: string }): string | undefined {
  if (o.type === 'payment') return href('payments', o.id);
  if (o.type === 'subscription') return href('subscriptions', o.id);
  return undefined;
}

/** The event of a delivery: its type, its id (linking to the event page) and the object it is about. */
export function DeliveryEvent({ d }: { d: DeliveryRow }) {
  const to = d.object && objectHref(d.object);
  return (
    <>
      <strong>{d.eventType}</strong>
      <div className="sub">
        event{' '}
        <a href={href('events', d.eventId)} aria-label={`Event ${d.eventId}`}>
          <code>{d.eventId}</code>
        </a>
      </div>
      {d.object && (
        <div className="sub">
          {d.object.type.replace(/_/g, ' ')}{' '}
          {to ? (
            <a href={to}>
              <code>{d.object.id}</code>
            </a>
          ) : (
            <code>{d.object.id}</code>
          )}
        </div>
      )}
    </>
  );
}

/**
 * Resend, offered only where the API would act (`resendable`: the delivery has not succeeded, this is its
 * newest try, the endpoint is enabled); the button names the event, so two events' buttons differ.
 */
export function ResendButton({ endpointId, d, onDone }: { endpointId: string; d: DeliveryRow; onDone: () => unknown }) {
  const { api } = useWorkspace();
  const can = useCan();
  if (!can('resend') || !d.resendable) return null;
  return (
    <ConfirmButton
      label={`Resend ${d.eventType} ${d.eventId}`}
      text="Resend"
      confirmText={`Send ${d.eventType} (event ${d.eventId}) to the endpoint again now?`}
      onConfirm={async () => {
        await unwrap(
          api.POST('/v1/webhook-endpoint/{id}/deliveries/{deliveryId}/resend', {
            params: { path: { id: endpointId, deliveryId: d.id } },
            headers: { 'idempotency-key': newIdempotencyKey() },
            body: {},
          }),
        );
        await onDone();
      }}
    />
  );
}
