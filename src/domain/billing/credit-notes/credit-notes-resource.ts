import { errorMessage } from '#catalogue/errors.js'
import type { OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import { type Json, pageV1 } from '../../engine/list.js'
import { subList } from '../../engine/sub-list.js'
import { emitSnapshot, type Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'
import { type CreditNotePlan, planCreditNote } from './credit-note-plan.js'

/** The credit note's fields from its plan (the stored object and the preview alike). */
function fieldsOf(engine: Engine, scope: Scope, id: string, plan: CreditNotePlan, call: OperationCall): Record<string, unknown> {
  const { invoice } = plan
  const seq = engine
    .resource('credit_note')
    .list(scope)
    .filter((c) => c.invoice === invoice.id).length
  return {
    amount: plan.total,
    amount_shipping: 0,
    currency: invoice.currency,
    customer: invoice.customer,
    discount_amount: 0,
    discount_amounts: [],
    effective_at: engine.now(),
    invoice: invoice.id,
    lines: subList(`/v1/credit_notes/${id}/lines`, plan.lines),
    memo: typeof call.params.memo === 'string' ? call.params.memo : null,
    number: `${String(invoice.number)}-CN-${String(seq + 1).padStart(2, '0')}`,
    out_of_band_amount: plan.outOfBand > 0 ? plan.outOfBand : null,
    pdf: `https://files.stripe.com/v1/credit_notes/${id}/pdf`,
    post_payment_amount: plan.postPayment,
    pre_payment_amount: plan.prePayment,
    pretax_credit_amounts: [],
    reason: typeof call.params.reason === 'string' ? call.params.reason : null,
    refunds: [],
    shipping_cost: null,
    status: 'issued',
    subtotal: plan.total,
    subtotal_excluding_tax: plan.total,
    total: plan.total,
    total_excluding_tax: plan.total,
    total_taxes: [],
    type: plan.prePayment > 0 ? 'pre_payment' : 'post_payment',
    voided_at: null,
  }
}

/** Moves a customer's balance by `amount` (negative: a credit) with a `credit_note` balance transaction. */
function moveBalance(
  engine: Engine,
  scope: Scope,
  customerId: string,
  amount: number,
  creditNote: string,
  currency: unknown,
  origin: Origin,
): string {
  const customers = engine.resource('customer')
  const ending = Number(customers.get(scope, customerId)?.balance ?? 0) + amount
  const txn = engine.resource('customer_balance_transaction').create(scope, {}, origin, {
    amount,
    credit_note: creditNote,
    currency,
    customer: customerId,
    ending_balance: ending,
    invoice: null,
    type: 'credit_note',
  })
  customers.set(scope, customerId, { balance: ending }, origin)
  return txn.id
}

function creditNoteOf(engine: Engine, call: OperationCall): Json {
  return engine.resource('credit_note').require(call.scope, call.path.id ?? '')
}

const notVoidable = (reason: string) =>
  invalidRequest(errorMessage('credit_note_unexpected_state', { reason, action: 'voided' }), {
    code: 'credit_note_unexpected_state',
  })

/**
 * Credit notes: a credit on an open invoice lowers what it asks (paid once nothing is left), a
 * credit on a paid one refunds its payment (`refund_amount`), credits the customer's balance
 * (`credit_amount`, the default) or records money returned out of band. Preview answers the same
 * object unsaved; void undoes a credit note without refunds while its invoice allows.
 *
 * @example
 * await stripe.creditNotes.create({ invoice: 'in_…', lines: [{ type: 'invoice_line_item', invoice_line_item: 'il_…' }], refund_amount: 900 })
 */
export const creditNotes: ResourceDeclaration<ResourcePorts> = {
  type: 'CreditNote',
  object: 'credit_note',
  idPrefix: 'cn',
  behaviours: {
    'creditNotes.create'(call, _next, { engine, ports }) {
      const plan = planCreditNote(engine, ports, call)
      const { invoice } = plan
      const id = ports.billing.newId('cn')
      const refunds: unknown[] = []
      if (plan.refund > 0 && plan.paymentIntent !== null) {
        const refund = engine.run('refunds.create', {
          ...call,
          path: {},
          params: { payment_intent: plan.paymentIntent, amount: plan.refund, metadata: {} },
        }) as Json
        refunds.push({ amount_refunded: plan.refund, refund: refund.id, type: 'refund' })
      }
      const customer = String(invoice.customer)
      const txn =
        plan.credit > 0 ? moveBalance(engine, call.scope, customer, -plan.credit, id, invoice.currency, call.origin) : null
      const { memo, metadata, reason } = call.params
      const created = engine.resource('credit_note').create(
        call.scope,
        { ...(metadata === undefined ? {} : { metadata }) },
        call.origin,
        {
          ...fieldsOf(engine, call.scope, id, plan, call),
          customer_balance_transaction: txn,
          refunds,
          memo: memo ?? null,
          reason: reason ?? null,
        },
        id,
      )
      const invoices = engine.resource('invoice')
      if (plan.prePayment > 0) {
        const remaining = Number(invoice.amount_remaining) - plan.prePayment
        invoices.set(
          call.scope,
          invoice.id,
          {
            amount_due: Number(invoice.amount_due) - plan.prePayment,
            amount_remaining: remaining,
            pre_payment_credit_notes_amount: Number(invoice.pre_payment_credit_notes_amount ?? 0) + plan.prePayment,
          },
          call.origin,
        )
        // Nothing left to pay: the invoice is paid (no payment paid it).
        if (remaining === 0) ports.billing.markPaid(call.scope, invoice.id, null, call.origin)
      } else {
        invoices.set(
          call.scope,
          invoice.id,
          { post_payment_credit_notes_amount: Number(invoice.post_payment_credit_notes_amount ?? 0) + plan.postPayment },
          call.origin,
        )
      }
      return created
    },
    'creditNotes.preview'(call, _next, { engine, ports }) {
      const plan = planCreditNote(engine, ports, call)
      const id = ports.billing.newId('cn')
      const draft = engine.resource('credit_note').build(call.scope, id, {})
      const refunds = plan.refund > 0 ? [{ amount_refunded: plan.refund, refund: null, type: 'refund' }] : []
      const metadata = call.params.metadata ?? {}
      return Object.assign(draft, fieldsOf(engine, call.scope, id, plan, call), { refunds, metadata })
    },
    'creditNotes.listPreviewLineItems'(call, _next, { engine, ports }) {
      const plan = planCreditNote(engine, ports, call)
      return pageV1(plan.lines, call.params, '/v1/credit_notes/preview/lines', 'credit_note_line_item')
    },
    'creditNotes.listLineItems'(call, _next, { engine }) {
      const note = creditNoteOf(engine, call)
      return pageV1(
        (note.lines as { data: Json[] }).data,
        call.params,
        `/v1/credit_notes/${note.id}/lines`,
        'credit_note_line_item',
      )
    },
    'creditNotes.voidCreditNote'(call, _next, { engine, ports }) {
      const note = creditNoteOf(engine, call)
      if (note.status !== 'issued') throw notVoidable(`is ${String(note.status)}`)
      if ((note.refunds as unknown[]).length > 0) throw notVoidable('refunded a payment')
      const invoices = engine.resource('invoice')
      const invoice = invoices.require(call.scope, String(note.invoice))
      const pre = Number(note.pre_payment_amount)
      if (pre > 0 && invoice.status !== 'open') throw notVoidable(`credits an invoice that is ${String(invoice.status)}`)
      const credited = typeof note.customer_balance_transaction === 'string' ? note.customer_balance_transaction : null
      const creditAmount =
        credited === null ? 0 : -Number(engine.resource('customer_balance_transaction').get(call.scope, credited)?.amount ?? 0)
      if (creditAmount > 0)
        moveBalance(engine, call.scope, String(note.customer), creditAmount, note.id, note.currency, call.origin)
      if (pre > 0) {
        invoices.set(
          call.scope,
          invoice.id,
          {
            amount_due: Number(invoice.amount_due) + pre,
            amount_remaining: Number(invoice.amount_remaining) + pre,
            pre_payment_credit_notes_amount: Number(invoice.pre_payment_credit_notes_amount ?? 0) - pre,
          },
          call.origin,
        )
      } else {
        invoices.set(
          call.scope,
          invoice.id,
          {
            post_payment_credit_notes_amount:
              Number(invoice.post_payment_credit_notes_amount ?? 0) - Number(note.post_payment_amount),
          },
          call.origin,
        )
      }
      const voided = engine.resource('credit_note').put(call.scope, note.id, { status: 'void', voided_at: engine.now() })
      emitSnapshot(ports.events, 'credit_note.voided', call.scope, voided, call.origin)
      return voided
    },
  },
}
