import { DAY } from '#kernel/time.js'
import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import { expandPaths } from '../../engine/expand.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { boundary } from '../calendar.js'
import { cancelAtParam, trialEndParam } from '../subscriptions/subscription-dates.js'
import {
  checkDistinctPrices,
  checkItemCount,
  checkOneCycle,
  checkQuantity,
  couponsOf,
  entriesOf,
  invalid,
  itemPrice,
  itemsAmount,
  missing,
  type Recurring,
  taxRatesOf,
} from '../subscriptions/subscription-params.js'
import { previewItems } from './preview-invoice-items.js'

type Params = Readonly<Record<string, unknown>>

const ITEMS = 'subscription_details[items]'

/**
 * The anchor `subscription_details.billing_cycle_anchor` asks for (unix seconds), or undefined for
 * none: `{ type: 'timestamp', timestamp }` now, a bare timestamp in the flat params of old versions;
 * `now` and `unchanged` start the cycle now, as no anchor does.
 */
function anchorOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    const { type, timestamp } = value as Params
    if (type !== 'timestamp') return undefined
    if (timestamp === undefined) throw missing('subscription_details[billing_cycle_anchor][timestamp]')
    return timestamp
  }
  return value === 'now' || value === 'unchanged' ? undefined : value
}

/**
 * The first period of the subscription previewed: up to its trial's end, one interval, or up to a
 * `billing_cycle_anchor` within the first full period, prorated by time (free with
 * `proration_behavior: none`, as the created subscription's would be).
 */
function firstPeriod(
  details: Params,
  trialEnd: number | null,
  rec: Recurring,
  now: number,
): { periodEnd: number; prorate: number } {
  const full = { periodEnd: trialEnd ?? boundary(now, rec.interval, rec.interval_count, 1), prorate: 1 }
  const anchorParam = anchorOf(details.billing_cycle_anchor)
  if (anchorParam === undefined || trialEnd !== null) return full
  const param = 'subscription_details[billing_cycle_anchor]'
  const a = Number(anchorParam) * 1000
  if (!Number.isFinite(a) || a < now) throw invalid(param, 'must be an integer Unix timestamp in the future')
  if (a > boundary(now, rec.interval, rec.interval_count, 1)) {
    throw invalid(param, 'cannot be later than the end of the first full billing period')
  }
  if (a <= now) return full
  if (details.proration_behavior === 'none') return { periodEnd: a, prorate: 0 }
  const fullStart = boundary(a, rec.interval, rec.interval_count, -1)
  return { periodEnd: a, prorate: (a - now) / (a - fullStart) }
}

/**
 * `invoices.createPreview` with a customer and `subscription_details.items` but no subscription:
 * the first invoice of the subscription those items would make, checked as `subscriptions.create`
 * checks them (known recurring prices or `price_data`, one currency and interval, quantities, the
 * customer's currency) and priced as it would bill them (trial, `billing_cycle_anchor`, coupons of
 * `discounts`, `default_tax_rates`). Nothing is made: `price_data` stays a draft price.
 *
 * @example
 * previewNewSubscription(engine, ports, call, 'cus_123')
 * // { id: 'upcoming_in_...', object: 'invoice', billing_reason: 'upcoming', amount_due: 1000, ... }
 */
export function previewNewSubscription(engine: Engine, ports: ResourcePorts, call: OperationCall, customerId: string): Json {
  const details = (call.params.subscription_details ?? {}) as Params
  const customer = engine.resource('customer').requireParam(call.scope, customerId, 'customer')
  const entries = entriesOf(details.items)
  if (entries.length === 0) throw missing(ITEMS)
  checkItemCount(entries.length, ITEMS)
  const checked = entries.map((entry, i) => {
    const { price } = itemPrice(engine, call, entry, `${ITEMS}[${i}]`, `price_draft_${i}`)
    return { price, quantity: checkQuantity(price, entry.quantity, `${ITEMS}[${i}][quantity]`) }
  })
  checkDistinctPrices(
    checked.map((c) => String(c.price.id)),
    (i) => `${ITEMS}[${i}][price]`,
  )
  const { currency, rec } = checkOneCycle(
    checked.map((c) => c.price),
    ITEMS,
  )
  ports.billing.checkCurrency(call.scope, customerId, currency, 'subscription', `${ITEMS}[0][price]`)
  const timeline = ports.billing.timelineOfCustomer(call.scope, customer)
  const now = timeline.now()
  const coupons = couponsOf(engine, call, call.params.discounts, {
    customer: customerId,
    amount: itemsAmount(checked.map((c) => ({ price: c.price, quantity: c.quantity }))),
    currency,
    now: Math.floor(now / 1000),
  })
  const defaultRates = taxRatesOf(engine, call, details.default_tax_rates, 'subscription_details[default_tax_rates]')
  const trialParam = trialEndParam(details.trial_end, now, 'subscription_details[trial_end]')
  // As `subscriptions.create`: a price's own trial applies unless `trial_end` says otherwise.
  let trialEnd: number | null = null
  if (typeof trialParam === 'number') trialEnd = trialParam
  else if (trialParam === undefined && rec.trial_period_days !== null && rec.trial_period_days > 0) {
    trialEnd = now + rec.trial_period_days * DAY
  }
  const { periodEnd, prorate } = firstPeriod(details, trialEnd, rec, now)
  // As `subscriptions.create`: `cancel_at` is checked; it ends the subscription later and leaves
  // the first invoice as it is.
  cancelAtParam(details.cancel_at, now, periodEnd)
  const invoiceItems = previewItems(engine, call, currency, now)
  const prorationDate = typeof details.proration_date === 'number' ? details.proration_date : undefined
  return ports.billing.previewNew(call.scope, {
    ...(invoiceItems === undefined ? {} : { invoiceItems }),
    ...(prorationDate === undefined ? {} : { prorationDate }),
    customer,
    currency,
    items: checked.map((c, i) => ({ id: `si_upcoming_${i}`, price: c.price, quantity: c.quantity })),
    interval: rec.interval,
    count: rec.interval_count,
    start: now,
    periodEnd,
    trialEnd,
    prorate,
    coupons,
    defaultTaxRates: defaultRates,
    collectionMethod: 'charge_automatically',
    timeline,
    expandDiscounts: expandPaths(call.params).includes('discounts'),
  })
}
