import fc from 'fast-check';
import { INVOICE_STATUSES } from '@app/contracts';
import { DomainError } from '@app/errors';
import { applyInvoiceTransition, INVOICE_MACHINE, InvoiceState } from './invoice-state';

const STATES: InvoiceState[] = ['new', ...INVOICE_STATUSES];
const TRIGGERS = INVOICE_MACHINE.events;

describe('invoice transition table', () => {
  it('open → paid | failed | void, each with its event; issuing opens', () => {
    const issue = { status: 'new' as InvoiceState };
    expect(applyInvoiceTransition(issue, 'issue')).toBe('invoice.created');
    expect(issue.status).toBe('open');
    for (const [trigger, to, event] of [
      ['pay', 'paid', 'invoice.paid'],
      ['fail', 'failed', 'invoice.failed'],
      ['void', 'void', 'invoice.voided'],
    ] as const) {
      const invoice = { status: 'open' as InvoiceState };
      expect(applyInvoiceTransition(invoice, trigger)).toBe(event);
      expect(invoice.status).toBe(to);
    }
  });

  it('property: paid, failed and void are final', () => {
    fc.assert(
      fc.property(fc.constantFrom<InvoiceState>('paid', 'failed', 'void'), fc.constantFrom(...TRIGGERS), (from, t) => {
        const invoice = { status: from };
        expect(() => applyInvoiceTransition(invoice, t)).toThrow(DomainError);
        expect(invoice.status).toBe(from);
      }),
    );
  });

  it('property: only the table’s from-states are accepted', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATES), fc.constantFrom(...TRIGGERS), (from, t) => {
        const move = INVOICE_MACHINE.spec.moves[t];
        const allowed = move.from.includes(from);
        const invoice = { status: from };
        if (allowed) expect(applyInvoiceTransition(invoice, t)).toEqual(move.emits![0]);
        else expect(() => applyInvoiceTransition(invoice, t)).toThrow('Cannot');
      }),
    );
  });
});
