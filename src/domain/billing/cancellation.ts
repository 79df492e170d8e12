import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { LineSpec } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { Cycles } from './cycles.js'
import type { Invoicing } from './invoicing.js'
import { isMetered } from './lines.js'
import type { Payments } from './payments.js'
import type { Prorations } from './prorations.js'

/** `subscriptions.cancel`'s billing options (both default to false, as the provider's). */
export interface CancelOptions {
  /** A final invoice now: metered usage of the period so far and the subscription's pending prorations. */
  readonly invoiceNow: boolean
  /** A proration credit for the unused time of licensed items until the period end. */
  readonly prorate: boolean
}

const subscriptionOf = (ii: Json) =>
  (ii.parent as { subscription_details?: { subscription?: unknown } } | null)?.subscription_details?.subscription

/**
 * Cancelling a subscription now, as the provider does: `prorate` credits the unused time,
 * `invoice_now` bills at once what the subscription has not invoiced yet (finalized and paid
 * immediately), and with neither the subscription's pending prorations are removed.
 */
export function createCancellation(
  ctx: BillingContext,
  cycles: Cycles,
  invoicing: Invoicing,
  payments: Payments,
  prorations: Prorations,
) {
  const { r, lines, subs, key } = ctx

  return function cancel(scope: Scope, id: string, how: CancelOptions, origin: Origin): Json {
    const s = subs.get(key(scope, id))
    if (s === undefined) return cycles.cancelNow(scope, id, origin)
    const now = s.timeline.now()
    const items = cycles.itemsOf(scope, id)
    if (how.prorate) {
      const changes = items.map((item) => ({
        item: String(item.id),
        before: { price: item.price as Json, quantity: Number(item.quantity ?? 1) },
        after: null,
      }))
      prorations.apply(scope, s, changes, 'create_prorations', now, origin)
    }
    const pending = r
      .invoiceItem()
      .list(scope)
      .filter((ii) => ii.invoice === null && subscriptionOf(ii) === id)
      .reverse()
    if (!how.prorate && !how.invoiceNow) {
      for (const ii of pending) if (ii.proration === true) r.invoiceItem().delete(scope, String(ii.id), origin)
    }
    const canceled = cycles.cancelNow(scope, id, origin)
    if (!how.invoiceNow) return canceled
    const period = { start: s.periodStart, end: now }
    const specs: LineSpec[] = items
      .filter((item) => isMetered(item.price as Json))
      .map((item) => lines.itemLine(scope, s, item, period, false))
    for (const ii of pending) specs.push(lines.pendingLine(scope, ii))
    if (specs.length === 0) return canceled
    const sub = r.subscription().require(scope, id)
    const invoice = invoicing.createInvoice({
      scope,
      customer: r.customer().require(scope, s.customer),
      currency: String(sub.currency),
      sub: s,
      reason: 'subscription_cycle',
      specs,
      period,
      origin,
      timeline: s.timeline,
    })
    r.subscription().put(scope, id, { latest_invoice: invoice.id })
    payments.finalizeAndPay(scope, String(invoice.id), origin, true)
    return r.subscription().require(scope, id)
  }
}
