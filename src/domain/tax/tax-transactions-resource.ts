import { isPlainObject } from '../engine/apply-params.js'
import type { OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { type Json, pageV1 } from '../engine/list.js'
import { entriesOf, integerParam, invalidParam, missingParam } from '../engine/param-checks.js'
import { subList } from '../engine/sub-list.js'
import type { ResourcePorts } from '../resource-ports.js'

type Line = Json & { amount: number; amount_tax: number; quantity: number; reference: string | null }

const linesOf = (o: Json) => (o.line_items as { data: Line[] }).data

/** A reference names one transaction of the account, as on the provider. */
function freshReference(engine: Engine, call: OperationCall): string {
  const reference = call.params.reference
  if (typeof reference !== 'string' || reference === '') throw missingParam('reference')
  if (
    engine
      .resource('tax.transaction')
      .list(call.scope)
      .some((t) => t.reference === reference)
  ) {
    throw invalidParam('reference', `a transaction with reference '${reference}' already exists`)
  }
  return reference
}

/** What a partial reversal takes back from one line: what is left of it at most. */
function partialLines(call: OperationCall, original: Json, taken: ReadonlyMap<string, { amount: number; tax: number }>) {
  const entries = entriesOf(call.params.line_items)
  if (entries.length === 0) throw missingParam('line_items')
  return entries.map((raw, i) => {
    const p = `line_items[${i}]`
    if (!isPlainObject(raw) || typeof raw.original_line_item !== 'string') throw missingParam(`${p}[original_line_item]`)
    const line = linesOf(original).find((l) => l.id === raw.original_line_item)
    if (line === undefined) throw invalidParam(`${p}[original_line_item]`, 'must be a line item of the original transaction')
    if (typeof raw.reference !== 'string' || raw.reference === '') throw missingParam(`${p}[reference]`)
    const amount = -integerParam(-Number(raw.amount ?? Number.NaN), `${p}[amount]`, 0)
    const tax = -integerParam(-Number(raw.amount_tax ?? Number.NaN), `${p}[amount_tax]`, 0)
    const before = taken.get(line.id) ?? { amount: 0, tax: 0 }
    if (-(before.amount + amount) > line.amount || -(before.tax + tax) > line.amount_tax) {
      throw invalidParam(`${p}[amount]`, 'the reversal takes back more than is left of the line item')
    }
    const quantity = raw.quantity === undefined ? line.quantity : integerParam(raw.quantity, `${p}[quantity]`, 1)
    return { line, amount, tax, quantity, reference: raw.reference }
  })
}

/**
 * Tax transactions: a calculation recorded (`createFromCalculation`, until it expires) and its
 * reversals (`createReversal`, `full` or `partial` by line, never more than is left of a line).
 *
 * @example
 * await stripe.tax.transactions.createFromCalculation({ calculation: 'taxcalc_…', reference: 'order_1' })
 */
export const taxTransactions: ResourceDeclaration<ResourcePorts> = {
  type: 'Tax.Transaction',
  object: 'tax.transaction',
  idPrefix: 'tax',
  behaviours: {
    'tax.transactions.createFromCalculation'(call, _next, { engine, ports }) {
      const { calculation: calcId, metadata } = call.params
      if (typeof calcId !== 'string') throw missingParam('calculation')
      const calc = engine.resource('tax.calculation').requireParam(call.scope, calcId, 'calculation')
      if (Number(calc.expires_at) <= engine.now()) throw invalidParam('calculation', 'the calculation has expired')
      const reference = freshReference(engine, call)
      return engine.resource('tax.transaction').create(call.scope, { metadata }, call.origin, (created) => ({
        currency: calc.currency,
        customer: calc.customer,
        customer_details: calc.customer_details,
        line_items: subList(
          `/v1/tax/transactions/${created.id}/line_items`,
          linesOf(calc).map((l) => ({
            id: ports.billing.newId('tax_li'),
            object: 'tax.transaction_line_item',
            amount: l.amount,
            amount_tax: l.amount_tax,
            livemode: created.livemode,
            metadata: l.metadata ?? {},
            product: l.product ?? null,
            quantity: l.quantity,
            reference: l.reference ?? l.id,
            reversal: null,
            tax_behavior: l.tax_behavior,
            tax_code: l.tax_code,
            type: 'transaction',
          })),
        ),
        posted_at: engine.now(),
        reference,
        reversal: null,
        ship_from_details: null,
        shipping_cost: calc.shipping_cost ?? null,
        tax_date: calc.tax_date,
        type: 'transaction',
      }))
    },
    'tax.transactions.createReversal'(call, _next, { engine, ports }) {
      const { mode, original_transaction: originalId, metadata } = call.params
      if (mode !== 'full' && mode !== 'partial') throw invalidParam('mode', "must be one of 'full', 'partial'")
      if (typeof originalId !== 'string') throw missingParam('original_transaction')
      const r = engine.resource('tax.transaction')
      const original = r.requireParam(call.scope, originalId, 'original_transaction')
      if (original.type !== 'transaction') throw invalidParam('original_transaction', 'a reversal cannot be reversed')
      const earlier = r
        .list(call.scope)
        .filter((t) => (t.reversal as { original_transaction?: unknown } | null)?.original_transaction === original.id)
      const taken = new Map<string, { amount: number; tax: number }>()
      for (const t of earlier) {
        for (const l of linesOf(t)) {
          const of = String((l.reversal as { original_line_item: string }).original_line_item)
          const before = taken.get(of) ?? { amount: 0, tax: 0 }
          taken.set(of, { amount: before.amount + l.amount, tax: before.tax + l.amount_tax })
        }
      }
      if (mode === 'full' && earlier.length > 0) {
        throw invalidParam('original_transaction', 'the transaction has reversals already; reverse the rest partially')
      }
      const reference = freshReference(engine, call)
      const reversed =
        mode === 'full'
          ? linesOf(original).map((line) => ({
              line,
              amount: -line.amount,
              tax: -line.amount_tax,
              quantity: line.quantity,
              reference: line.reference ?? line.id,
            }))
          : partialLines(call, original, taken)
      return r.create(call.scope, { metadata }, call.origin, (created) => ({
        currency: original.currency,
        customer: original.customer,
        customer_details: original.customer_details,
        line_items: subList(
          `/v1/tax/transactions/${created.id}/line_items`,
          reversed.map((x) => ({
            id: ports.billing.newId('tax_li'),
            object: 'tax.transaction_line_item',
            amount: x.amount,
            amount_tax: x.tax,
            livemode: created.livemode,
            metadata: {},
            product: x.line.product ?? null,
            quantity: x.quantity,
            reference: x.reference,
            reversal: { original_line_item: x.line.id },
            tax_behavior: x.line.tax_behavior,
            tax_code: x.line.tax_code,
            type: 'reversal',
          })),
        ),
        posted_at: engine.now(),
        reference,
        reversal: { original_transaction: original.id },
        ship_from_details: null,
        shipping_cost: null,
        tax_date: original.tax_date,
        type: 'reversal',
      }))
    },
    'tax.transactions.listLineItems'(call, _next, { engine }) {
      const t = engine.resource('tax.transaction').require(call.scope, call.path.id ?? '')
      return pageV1(linesOf(t), call.params, `/v1/tax/transactions/${t.id}/line_items`, 'tax.transaction_line_item')
    },
  },
}
