import { ALL_EVENT_TYPES, ErrorCodes, EventDataClasses } from '@app/contracts';
import type { ErrorCode, Event, EventType, KnownErrorCode, ListItem, PaymentsApiError, WebhookEvent } from '../src';
import { ERROR_CODES, EVENT_TYPES } from '../src';

// The type-level checks below are compiled by `npm run typecheck`: a wrong union fails the build, not a run.
function handle(event: WebhookEvent): string | null {
  switch (event.type) {
    case 'subscription.cancelled':
      return event.data.cancelledAt ?? null;
    case 'payment.captured':
      return event.data.payment_code + event.data.status;
    case 'payment_link.attempts_blocked':
      return event.data.block.scope;
    case 'ping':
      return event.data.endpointId;
    // @ts-expect-error a misspelt event type is no member of the union
    case 'subscription.canceled':
      return null;
    default:
      return null;
  }
}

function wrongData(event: Event<'invoice.paid'>): unknown {
  // @ts-expect-error an invoice has no cancelledAt
  return event.data.cancelledAt ?? null;
}

const listed = (item: ListItem<'/v1/events'>): string | null =>
  item.type === 'invoice.paid' ? (item.data.paidAt ?? null) : null;

function codes(error: PaymentsApiError): boolean {
  const known: ErrorCode = 'INVALID_STATE';
  const future: ErrorCode = 'A_CODE_FROM_A_NEWER_SERVER';
  // @ts-expect-error a misspelt code is no known code
  const misspelt: KnownErrorCode = 'INVALID_STAET';
  return [known, future, misspelt].includes(error.code);
}

describe('the generated event and error code unions', () => {
  it('hold every event type of the catalogue, and nothing else', () => {
    expect([...EVENT_TYPES].sort()).toEqual([...ALL_EVENT_TYPES].sort());
    const fromCatalogue: readonly EventType[] = ALL_EVENT_TYPES;
    expect(fromCatalogue).toHaveLength(EVENT_TYPES.length);
  });

  it('name a data class for every event type', () => {
    for (const type of EVENT_TYPES)
      expect({ type, data: typeof EventDataClasses[type] }).toEqual({ type, data: 'function' });
  });

  it('hold every error code of the API', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(ErrorCodes).sort());
  });

  it('narrow data by type', () => {
    const event = { type: 'payment_link.attempts_blocked', data: { block: { scope: 'link' } } } as WebhookEvent;
    expect(handle(event)).toBe('link');
    expect(listed({ type: 'invoice.paid', data: { paidAt: 'then' } } as Event)).toBe('then');
    expect(wrongData({ data: {} } as Event<'invoice.paid'>)).toBeNull();
    expect(codes({ code: 'INVALID_STATE' } as PaymentsApiError)).toBe(true);
  });
});
