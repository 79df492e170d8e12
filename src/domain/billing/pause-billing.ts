import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type SubState, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { isMetered } from './lines.js'
import { lineUnitDecimal } from './pricing.js'
import type { ItemChange, Prorations } from './prorations.js'

/**
 * What a pause bills (`subscriptions.pause`): metered usage through now or none
 * (`bill_for.outstanding_usage_through`), a credit for unused licensed time from now, from the
 * period's start or none (`bill_for.unused_time_from`), as pending invoice items or an invoice now
 * (`invoicing_behavior`). Each defaults as the provider documents: `now`, `now`,
 * `pending_invoice_item`.
 */
export interface PauseBilling {
  readonly usage: 'now' | 'none'
  readonly unusedFrom: 'now' | 'item_current_period_start' | 'none'
  readonly invoicing: 'invoice' | 'pending_invoice_item'
}

/**
 * The pause's billing from `subscriptions.pause`'s params, with the provider's defaults.
 *
 * @example
 * pauseBillingOf({ invoicing_behavior: 'invoice' }) // { usage: 'now', unusedFrom: 'now', invoicing: 'invoice' }
 */
export function pauseBillingOf(params: Readonly<Record<string, unknown>>): PauseBilling {
  const billFor = (params.bill_for ?? {}) as {
    outstanding_usage_through?: { type?: unknown }
    unused_time_from?: { type?: unknown }
  }
  const usage = billFor.outstanding_usage_through?.type === 'none' ? 'none' : 'now'
  const unused = billFor.unused_time_from?.type
  return {
    usage,
    unusedFrom: unused === 'none' || unused === 'item_current_period_start' ? unused : 'now',
    invoicing: params.invoicing_behavior === 'invoice' ? 'invoice' : 'pending_invoice_item',
  }
}

/**
 * Bills a pause as `bill` says, at the subscription's now: the metered usage of the period so far
 * as pending invoice items (and the period's usage then counts from now, so the resumption does not
 * bill it again); a proration credit for the licensed items' unused time; with `invoice`, the
 * customer's pending items invoiced at once (`subscription_update`, finalized and paid or credited
 * to the balance). Nothing is billed in a trial.
 *
 * @example
 * billPause(ctx, prorations, itemsOf, scope, s, pauseBillingOf({}), origin)
 */
export function billPause(
  ctx: BillingContext,
  prorations: Pick<Prorations, 'apply' | 'invoiceNow'>,
  items: readonly Json[],
  s: SubState,
  bill: PauseBilling,
  origin: Origin,
): void {
  const { scope } = s
  const now = s.timeline.now()
  if (s.trialEnd !== null && now < s.trialEnd) return
  // The credit first: it prorates over the period as it stands, before its usage start moves.
  if (bill.unusedFrom !== 'none') {
    const changes: ItemChange[] = items
      .filter((i) => !isMetered(i.price as Json))
      .map((i) => ({ item: String(i.id), before: { price: i.price as Json, quantity: Number(i.quantity ?? 1) }, after: null }))
    const from = bill.unusedFrom === 'now' ? now : s.periodStart
    prorations.apply(scope, s, changes, 'create_prorations', from, origin)
  }
  if (bill.usage === 'now') {
    for (const item of items.filter((i) => isMetered(i.price as Json))) usageItem(ctx, scope, s, item, now, origin)
    s.periodStart = now
  }
  const currency = String(ctx.r.subscription().require(scope, s.id).currency)
  if (bill.invoicing === 'invoice' && ctx.lines.pendingItems(scope, s.customer, currency).length > 0) {
    prorations.invoiceNow(scope, s, origin)
  }
}

/** A pending invoice item for a metered item's usage from the period's start to `now`, unless it is nothing. */
function usageItem(ctx: BillingContext, scope: Scope, s: SubState, item: Json, now: number, origin: Origin): void {
  const spec = ctx.lines.itemLine(scope, s, item, { start: s.periodStart, end: now }, false)
  if (spec.amount === 0) return
  const price = item.price as Json
  const sub = ctx.r.subscription().require(scope, s.id)
  ctx.r.invoiceItem().create(scope, {}, origin, {
    amount: spec.amount,
    currency: sub.currency,
    customer: s.customer,
    date: sec(now),
    description: spec.description,
    discountable: true,
    invoice: null,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: s.id, subscription_item: String(item.id) },
    },
    period: { start: sec(spec.period.start), end: sec(spec.period.end) },
    pricing: {
      type: 'price_details',
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: lineUnitDecimal(price, spec.quantity, spec.amount),
    },
    proration: false,
    quantity: spec.quantity,
    test_clock: s.timeline.clock,
  })
}
