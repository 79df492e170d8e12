import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../../engine/apply-params.js'
import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { refundableAmount } from '../../payments/charge.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })
const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

/**
 * What a credit note would do, worked out (and checked) before anything changes.
 *
 * @example
 * const { total, prePayment, refund } = planCreditNote(engine, ports, call)
 */
export interface CreditNotePlan {
  readonly invoice: Json
  readonly lines: readonly Json[]
  readonly total: number
  /** Credited before payment: what the open invoice asks falls by this. */
  readonly prePayment: number
  /** Credited after payment, split into a refund, a credit to the customer's balance, and out of band. */
  readonly postPayment: number
  readonly refund: number
  readonly credit: number
  readonly outOfBand: number
  /** The payment intent a refund goes to (the one that paid the invoice). */
  readonly paymentIntent: string | null
}

const int = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : Number(v))

/** A non-negative integer amount param, else 400 on it. */
function amountParam(v: unknown, param: string): number | undefined {
  const n = int(v)
  if (n !== undefined && (!Number.isSafeInteger(n) || n < 0)) throw invalid(param, 'must be a non-negative integer')
  return n
}

/** The payment intent that paid an invoice, from its invoice payments. */
function payingIntent(engine: Engine, call: OperationCall, invoice: Json): string | null {
  const record = engine
    .resource('invoice_payment')
    .list(call.scope)
    .find((p) => p.invoice === invoice.id && p.status === 'paid')
  const pi = (record?.payment as { payment_intent?: unknown } | undefined)?.payment_intent
  return typeof pi === 'string' ? pi : null
}

/** Credit note lines from `lines[]`: an invoice line (all of it, `quantity` of it, or `amount`), or a custom line. */
function linesOf(engine: Engine, ports: ResourcePorts, call: OperationCall, invoice: Json): Json[] {
  const raw = call.params.lines
  if (raw === undefined) return []
  const entries = Array.isArray(raw) ? raw : isPlainObject(raw) ? Object.values(raw) : []
  const invoiceLines = (invoice.lines as { data: Json[] }).data
  return entries.map((e, i) => {
    const at = `lines[${i}]`
    if (!isPlainObject(e)) throw invalid(at, 'must be an object')
    const quantity = int(e.quantity)
    let amount: number
    let unit: number | null
    let invoiceLine: string | undefined
    if (e.type === 'invoice_line_item') {
      if (typeof e.invoice_line_item !== 'string') throw missing(`${at}[invoice_line_item]`)
      const line = invoiceLines.find((l) => l.id === e.invoice_line_item)
      if (line === undefined) {
        throw invalidRequest(errorMessage('resource_missing', { kind: 'line_item', id: e.invoice_line_item }), {
          code: 'resource_missing',
          param: `${at}[invoice_line_item]`,
        })
      }
      invoiceLine = line.id
      const lineQuantity = Number(line.quantity ?? 1) || 1
      unit = Math.round(Number(line.amount) / lineQuantity)
      amount =
        amountParam(e.amount, `${at}[amount]`) ?? (quantity === undefined ? Number(line.amount) : Math.round(unit * quantity))
      if (amount > Number(line.amount)) {
        throw invalid(`${at}[amount]`, `the credit of ${amount} exceeds the line's amount of ${String(line.amount)}`)
      }
    } else if (e.type === 'custom_line_item') {
      const u = amountParam(e.unit_amount, `${at}[unit_amount]`)
      if (u === undefined) throw missing(`${at}[unit_amount]`)
      unit = u
      amount = u * (quantity ?? 1)
      if (typeof e.description !== 'string' || e.description === '') throw missing(`${at}[description]`)
    } else if (e.type === undefined) throw missing(`${at}[type]`)
    else throw invalid(`${at}[type]`, "must be one of 'invoice_line_item', 'custom_line_item'")
    return engine.build('CreditNoteLineItem', 'credit_note_line_item', call.scope, {
      id: ports.billing.newId('cnli'),
      object: 'credit_note_line_item',
      amount,
      description: typeof e.description === 'string' ? e.description : null,
      discount_amount: 0,
      discount_amounts: [],
      ...(invoiceLine === undefined ? {} : { invoice_line_item: invoiceLine }),
      metadata: isPlainObject(e.metadata) ? e.metadata : {},
      pretax_credit_amounts: [],
      quantity: quantity ?? 1,
      tax_rates: [],
      taxes: [],
      type: e.type,
      unit_amount: unit,
      unit_amount_decimal: unit === null ? null : String(unit),
    })
  })
}

/**
 * Works out a credit note of an invoice from create (or preview) params, refusing before any
 * change: the invoice must be open or paid; the total (`amount`, or the lines' sum) is at most
 * what the open invoice still asks, or what the paid one was paid less what was credited after
 * payment; after payment, `refund_amount` + `credit_amount` + `out_of_band_amount` make the total
 * (all to the customer's balance when none is given), and a refund is at most what its charge has
 * left to refund.
 *
 * @example
 * const plan = planCreditNote(engine, ports, call) // { total: 500, prePayment: 500, ... }
 */
export function planCreditNote(engine: Engine, ports: ResourcePorts, call: OperationCall): CreditNotePlan {
  const { invoice: invoiceId } = call.params
  if (typeof invoiceId !== 'string') throw missing('invoice')
  const invoice = engine.resource('invoice').requireParam(call.scope, invoiceId, 'invoice')
  if (invoice.status !== 'open' && invoice.status !== 'paid') {
    throw invalidRequest(errorMessage('invoice_unexpected_state', { status: String(invoice.status), action: 'credited' }), {
      code: 'invoice_unexpected_state',
      param: 'invoice',
    })
  }
  const lines = linesOf(engine, ports, call, invoice)
  const amount = amountParam(call.params.amount, 'amount')
  const sum = lines.reduce((n, l) => n + Number(l.amount), 0)
  if (amount === undefined && lines.length === 0) throw missing('lines')
  if (amount !== undefined && lines.length > 0 && amount !== sum) {
    throw invalid('amount', `must equal the sum of the lines (${sum})`)
  }
  const total = amount ?? sum
  if (total <= 0) throw invalid('amount', 'a credit note must credit a positive amount')
  let refund = amountParam(call.params.refund_amount, 'refund_amount') ?? 0
  let credit = amountParam(call.params.credit_amount, 'credit_amount') ?? 0
  const outOfBand = amountParam(call.params.out_of_band_amount, 'out_of_band_amount') ?? 0
  if (invoice.status === 'open') {
    const remaining = Number(invoice.amount_remaining)
    if (total > remaining)
      throw invalid('amount', `the credit of ${total} exceeds the invoice's amount_remaining of ${remaining}`)
    for (const [param, v] of [
      ['refund_amount', refund],
      ['credit_amount', credit],
      ['out_of_band_amount', outOfBand],
    ] as const) {
      if (v > 0) throw invalid(param, 'can only be set for a paid invoice')
    }
    return { invoice, lines, total, prePayment: total, postPayment: 0, refund: 0, credit: 0, outOfBand: 0, paymentIntent: null }
  }
  const creditable = Number(invoice.amount_paid) - Number(invoice.post_payment_credit_notes_amount ?? 0)
  if (total > creditable)
    throw invalid('amount', `the credit of ${total} exceeds the ${creditable} left to credit on the invoice`)
  if (refund + credit + outOfBand === 0) credit = total
  if (refund + credit + outOfBand !== total) {
    throw invalid(
      'refund_amount',
      `refund_amount, credit_amount and out_of_band_amount must add up to the credit note's total of ${total}`,
    )
  }
  const paymentIntent = payingIntent(engine, call, invoice)
  if (refund > 0) {
    const pi = paymentIntent === null ? undefined : engine.find(call.scope, paymentIntent)
    const charge = typeof pi?.latest_charge === 'string' ? ports.charges.get(call.scope, pi.latest_charge) : undefined
    const left = charge === undefined ? 0 : refundableAmount(charge)
    if (refund > left)
      throw invalid('refund_amount', `the refund of ${refund} exceeds the ${left} left to refund on the invoice's payment`)
  } else refund = 0
  return { invoice, lines, total, prePayment: 0, postPayment: total, refund, credit, outOfBand, paymentIntent }
}
