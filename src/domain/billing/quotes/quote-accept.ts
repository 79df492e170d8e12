import { isPlainObject } from '../../engine/apply-params.js'
import type { BehaviourEnv, OperationCall } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import type { QuoteLine } from './quote-amounts.js'

const isRecurring = (l: QuoteLine) => l.price.recurring !== null && l.price.recurring !== undefined

/**
 * What accepting an open quote makes, through the same operations an integration would call:
 * recurring lines become a subscription (its one-time lines pending invoice items its first
 * invoice takes), or a subscription schedule starting at `subscription_data.effective_date` when
 * that is later than now; a quote of one-time lines only becomes an invoice of them. The quote
 * is then `accepted`, naming what it made, with `quote.accepted`.
 *
 * @example
 * acceptQuote(call, env, quote, lines) // the accepted quote
 */
export function acceptQuote(call: OperationCall, env: BehaviourEnv<ResourcePorts>, quote: Json, lines: QuoteLine[]): Json {
  const { engine } = env
  // The quote's prices are its own to use, those its `price_data` made (inactive) included.
  const heldPrices = lines.map((l) => String(l.price.id))
  const run = (operation: string, params: Record<string, unknown>) =>
    engine.run(operation, { scope: call.scope, origin: call.origin, path: {}, params, heldPrices }) as Json
  const customer = String(quote.customer)
  const coupons = ((quote.discounts as string[] | null) ?? []).map((id) => {
    const d = engine.resource('discount').get(call.scope, id)
    return { coupon: String((d?.source as { coupon?: Json } | undefined)?.coupon?.id) }
  })
  const rates = (l: QuoteLine) => l.taxRates.map((r) => r.id)
  const recurring = lines.filter(isRecurring)
  const oneTime = lines.filter((l) => !isRecurring(l))
  const data = isPlainObject(quote.subscription_data) ? quote.subscription_data : {}
  const collection = {
    collection_method: quote.collection_method,
    ...(quote.collection_method === 'send_invoice' ? { days_until_due: quote.days_until_due } : {}),
  }
  const made: Record<string, unknown> = {}
  if (recurring.length > 0) {
    const items = recurring.map((l) => ({ price: l.price.id, quantity: l.quantity, tax_rates: rates(l) }))
    const effective = Number(data.effective_date)
    if (Number.isFinite(effective) && effective > engine.now()) {
      const schedule = run('subscriptionSchedules.create', {
        customer,
        start_date: effective,
        end_behavior: 'release',
        phases: [{ items, ...(coupons.length > 0 ? { discounts: coupons } : {}) }],
      })
      made.subscription_schedule = schedule.id
    } else {
      for (const l of oneTime)
        run('invoiceItems.create', { customer, price: l.price.id, quantity: l.quantity, tax_rates: rates(l) })
      const sub = run('subscriptions.create', {
        customer,
        items,
        ...collection,
        ...(coupons.length > 0 ? { discounts: coupons } : {}),
        ...(data.trial_period_days === undefined || data.trial_period_days === null
          ? {}
          : { trial_period_days: data.trial_period_days }),
        ...(typeof data.description === 'string' ? { description: data.description } : {}),
        metadata: { ...((data.metadata as object | undefined) ?? {}) },
      })
      made.subscription = sub.id
      made.subscription_schedule = sub.schedule ?? null
    }
  } else {
    for (const l of oneTime) {
      run('invoiceItems.create', {
        customer,
        price: l.price.id,
        quantity: l.quantity,
        tax_rates: rates(l),
        ...(coupons.length > 0 ? { discounts: coupons } : {}),
      })
    }
    const invoice = run('invoices.create', { customer, pending_invoice_items_behavior: 'include', ...collection })
    made.invoice = invoice.id
  }
  const accepted = engine.resource('quote').put(call.scope, quote.id, {
    ...made,
    status: 'accepted',
    status_transitions: { ...(quote.status_transitions as object), accepted_at: engine.now() },
  })
  engine.emit('quote.accepted', call.scope, accepted, call.origin)
  return accepted
}
