import { DAY } from '#kernel/time.js'
import type { Behaviour, OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { subList } from '../../engine/sub-list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { sec } from '../billing-types.js'
import { boundary } from '../calendar.js'
import type { PlannedPrice } from '../catalog/inline-prices.js'
import { type Redemption, redeem } from '../catalog/promotion-redemption.js'
import { lineAmount } from '../pricing.js'
import type { Timeline } from '../timelines.js'
import { addInvoiceItems, checkAddInvoiceItems, type PlannedInvoiceItem } from './add-invoice-items.js'
import { hasPaymentMethod, startWithoutPayment } from './pending-setup-intent.js'
import { cancelAtParam } from './subscription-dates.js'
import {
  checkCollection,
  checkDistinctPrices,
  checkItemCount,
  checkOneCycle,
  checkPaymentMethod,
  checkQuantity,
  entriesOf,
  invalid,
  itemPrice,
  itemsAmount,
  missing,
  type Recurring,
  redemptionsOf,
  taxRatesOf,
} from './subscription-params.js'

type Params = Readonly<Record<string, unknown>>

/** One entry of `items`, checked: its price (a draft of its `price_data` until every check passed) and quantity. */
interface CheckedItem {
  readonly entry: Params
  price: Json
  readonly planned: PlannedPrice
  readonly quantity: number | undefined
}

/** The first period (ms): the trial's end, the cycle's anchor, the period's end and the fraction of a full period it bills. */
interface FirstPeriod {
  readonly trialEnd: number | null
  readonly anchor: number
  readonly periodEnd: number
  /** Boundaries counted from the anchor: the first period ends at boundary n. */
  readonly n: number
  readonly prorate: number
}

/** A subscription about to be made: what the checks found, nothing made yet. */
interface NewSubscription {
  readonly customerId: string
  readonly params: Params
  readonly checked: readonly CheckedItem[]
  readonly itemRates: readonly Json[][]
  readonly defaultRates: Json[]
  readonly redemptions: readonly Redemption[]
  /** `add_invoice_items`, checked: one-time items the first invoice bills. */
  readonly addItems: readonly PlannedInvoiceItem[]
  readonly currency: string
  readonly rec: Recurring
  readonly sendInvoice: boolean
  readonly paymentBehavior: unknown
  readonly status: string
  readonly timeline: Timeline
  readonly now: number
  readonly first: FirstPeriod
  readonly cancelAt: number | null
}

/**
 * Fields of a new subscription item: the price object, its quantity (licensed only) and period.
 *
 * @example
 * itemFields(price, 2, 'sub_1', periodStart, periodEnd, now).current_period_end // unix seconds
 */
export function itemFields(
  price: Json,
  quantity: number | undefined,
  subId: string,
  start: number,
  end: number,
  created: number,
) {
  return {
    subscription: subId,
    price,
    quantity,
    current_period_start: sec(start),
    current_period_end: sec(end),
    created: sec(created),
  }
}

/**
 * `subscriptions.create`: every check first (customer, items, one currency and interval, payment
 * method, collection, discounts, tax rates, trial, anchor, `cancel_at`), then the inline prices,
 * the subscription and its items, its discounts, and its cycle started with its first invoice.
 *
 * @example
 * await stripe.subscriptions.create({ customer: 'cus_…', items: [{ price: 'price_…' }] }) // status 'active'
 */
export const createSubscription: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const plan = checkNew(engine, ports, call)
  // Every check has passed: the prices `price_data` describes are made now.
  for (const c of plan.checked) c.price = c.planned.make()
  const invoiceId = ports.billing.newInvoiceId()
  const created = makeSubscription(engine, call, plan, invoiceId)
  if (plan.redemptions.length > 0) {
    const ids = plan.redemptions.map(
      (r) => ports.billing.discounts.create(call.scope, r, plan.customerId, created.id, plan.now, call.origin).id,
    )
    engine.resource('subscription').put(call.scope, created.id, { discounts: ids })
    redeem(engine, call.scope, plan.redemptions)
  }
  addInvoiceItems(engine, call, plan.customerId, created.id, plan.addItems)
  const started = startBilling(ports, call, plan, created, invoiceId)
  if (plan.paymentBehavior === 'default_incomplete' && !plan.sendInvoice) {
    return startWithoutPayment(engine, ports, call, started, invoiceId)
  }
  // Nothing to pay now and no payment method to charge later: the provider's automatic setup
  // intent cannot complete, so it is left on the subscription for the customer's browser.
  if (!plan.sendInvoice && !hasPaymentMethod(engine, call.scope, started)) {
    return startWithoutPayment(engine, ports, call, started, invoiceId)
  }
  return started
}

/** Every check of a new subscription, in the provider's order; nothing is made. */
function checkNew(engine: Engine, ports: ResourcePorts, call: OperationCall): NewSubscription {
  const {
    items,
    customer: customerId,
    trial_end: trialEndValue,
    trial_period_days: trialDaysValue,
    billing_cycle_anchor: anchorValue,
    cancel_at: cancelAtValue,
    payment_behavior: paymentBehavior,
    proration_behavior: prorationBehavior,
    off_session: _offSession,
    discounts: discountsParam,
    default_tax_rates: defaultRatesParam,
    add_invoice_items: addItemsParam,
    expand: _expand,
    ...params
  } = call.params
  if (typeof customerId !== 'string' || customerId === '') throw missing('customer')
  if (cancelAtValue !== undefined && params.cancel_at_period_end !== undefined)
    throw tableError('subscription_cancel_params_exclusive')
  const customer = engine.resource('customer').requireParam(call.scope, customerId, 'customer')
  const entries = entriesOf(items)
  const checked = checkItems(engine, call, entries)
  const { currency, rec } = checkOneCycle(
    checked.map((c) => c.price),
    'items',
  )
  ports.billing.checkCurrency(call.scope, customer.id, currency, 'subscription', 'items[0][price]')
  checkPaymentMethod(call, ports, customerId, params.default_payment_method)
  const sendInvoice = checkCollection(params.collection_method, params.days_until_due)
  const defaultRates = taxRatesOf(engine, call, defaultRatesParam, 'default_tax_rates')
  const itemRates = entries.map((entry, i) => taxRatesOf(engine, call, entry.tax_rates, `items[${i}][tax_rates]`))
  const timeline = ports.billing.timelineOfCustomer(call.scope, customer)
  const now = timeline.now()
  const redemptions = redemptionsOf(engine, call, discountsParam, {
    customer: customerId,
    amount: itemsAmount(checked.map((c) => ({ price: c.price, quantity: c.quantity }))),
    currency,
    now: Math.floor(now / 1000),
  })
  const addItems = checkAddInvoiceItems(engine, call, addItemsParam, 'add_invoice_items', currency)
  const first = firstPeriod(anchorValue, trialEndOf(trialEndValue, trialDaysValue, rec, now), rec, now, prorationBehavior)
  const cancelAt = cancelAtParam(cancelAtValue, now, first.periodEnd) ?? null
  const status = statusOf(checked, first, sendInvoice)
  // `error_if_incomplete`: a first payment that would fail is refused before anything is made.
  if (status === 'incomplete' && paymentBehavior === 'error_if_incomplete') {
    ports.billing.checkPayable(call.scope, customerId, params.default_payment_method)
  }
  return {
    customerId,
    params,
    checked,
    itemRates,
    defaultRates,
    redemptions,
    addItems,
    currency,
    rec,
    sendInvoice,
    paymentBehavior,
    status,
    timeline,
    now,
    first,
    cancelAt,
  }
}

/** The entries of `items`, each priced and its quantity checked: at least one, at most the limit, each price once. */
function checkItems(engine: Engine, call: OperationCall, entries: readonly Params[]): CheckedItem[] {
  if (entries.length === 0) throw missing('items')
  checkItemCount(entries.length, 'items')
  const checked = entries.map((entry, i) => {
    const planned = itemPrice(engine, call, entry, `items[${i}]`, `price_draft_${i}`)
    const price = planned.price
    return { entry, price, planned, quantity: checkQuantity(price, entry.quantity, `items[${i}][quantity]`) }
  })
  checkDistinctPrices(
    checked.map((c) => c.price.id),
    (i) => `items[${i}][price]`,
  )
  return checked
}

/** The trial's end (ms): `trial_end`, else `trial_period_days`, else the price's own trial days; null without a trial. */
function trialEndOf(trialEndValue: unknown, trialDaysValue: unknown, rec: Recurring, now: number): number | null {
  if (trialEndValue !== undefined && trialEndValue !== 'now') {
    const t = Number(trialEndValue) * 1000
    if (!Number.isFinite(t) || t <= now) throw invalid('trial_end', 'must be an integer Unix timestamp in the future')
    return t
  }
  if (trialDaysValue !== undefined) {
    const d = Number(trialDaysValue)
    if (!Number.isSafeInteger(d) || d < 0 || d > 730) throw invalid('trial_period_days', 'must be an integer between 0 and 730')
    return d > 0 ? now + d * DAY : null
  }
  if (rec.trial_period_days !== null && rec.trial_period_days > 0) return now + rec.trial_period_days * DAY
  return null
}

/**
 * The first period: a trial's runs to its end; else one interval from now, or up to a
 * `billing_cycle_anchor` within the first full period (a shorter period, prorated by time, or
 * free with `proration_behavior: none`).
 */
function firstPeriod(
  anchorValue: unknown,
  trialEnd: number | null,
  rec: Recurring,
  now: number,
  prorationBehavior?: unknown,
): FirstPeriod {
  const anchor = trialEnd ?? now
  if (trialEnd !== null) return { trialEnd, anchor, periodEnd: trialEnd, n: 0, prorate: 1 }
  const full: FirstPeriod = {
    trialEnd,
    anchor,
    periodEnd: boundary(anchor, rec.interval, rec.interval_count, 1),
    n: 1,
    prorate: 1,
  }
  if (anchorValue === undefined) return full
  const a = Number(anchorValue) * 1000
  if (!Number.isFinite(a) || a < now) throw invalid('billing_cycle_anchor', 'must be an integer Unix timestamp in the future')
  const fullEnd = boundary(now, rec.interval, rec.interval_count, 1)
  if (a > fullEnd) throw invalid('billing_cycle_anchor', 'cannot be later than the end of the first full billing period')
  if (a <= now) return full
  // `proration_behavior: none`: the time until the anchor is not billed.
  if (prorationBehavior === 'none') return { trialEnd, anchor: a, periodEnd: a, n: 0, prorate: 0 }
  // The first, shorter period is prorated by time, as the provider's default proration does.
  const fullStart = boundary(a, rec.interval, rec.interval_count, -1)
  return { trialEnd, anchor: a, periodEnd: a, n: 0, prorate: (a - now) / (a - fullStart) }
}

/**
 * The new subscription's status: `trialing`, `incomplete` until a first invoice with something to
 * charge is paid, else `active` (a `send_invoice` subscription is active at once: its first invoice
 * is due later, not charged).
 */
function statusOf(checked: readonly CheckedItem[], first: FirstPeriod, sendInvoice: boolean): string {
  if (first.trialEnd !== null) return 'trialing'
  const amount = checked.reduce(
    (sum, c) =>
      sum +
      ((c.price.recurring as Recurring).usage_type === 'metered'
        ? 0
        : Math.round(lineAmount(c.price, c.quantity ?? 1) * first.prorate)),
    0,
  )
  return amount > 0 && !sendInvoice ? 'incomplete' : 'active'
}

/** The subscription and its items, stored (`customer.subscription.created`). */
function makeSubscription(engine: Engine, call: OperationCall, plan: NewSubscription, invoiceId: string): Json {
  const { checked, now, first, params } = plan
  return engine.resource('subscription').create(call.scope, { ...params, customer: plan.customerId }, call.origin, (sub) => {
    const itemsR = engine.resource('subscription_item')
    const made = checked.map((c, i) =>
      itemsR.create(call.scope, { metadata: c.entry.metadata ?? {} }, call.origin, {
        ...itemFields(c.price, c.quantity, sub.id, now, first.periodEnd, now),
        tax_rates: plan.itemRates[i] ?? [],
      }),
    )
    for (const item of made) {
      if (item.quantity === undefined) itemsR.put(call.scope, item.id, { quantity: undefined })
    }
    const stored = made.map((m) => itemsR.require(call.scope, m.id))
    return {
      items: subList(`/v1/subscription_items?subscription=${sub.id}`, stored),
      default_tax_rates: plan.defaultRates,
      currency: plan.currency,
      status: plan.status,
      created: sec(now),
      start_date: sec(now),
      billing_cycle_anchor: sec(first.anchor),
      trial_start: first.trialEnd === null ? null : sec(now),
      trial_end: first.trialEnd === null ? null : sec(first.trialEnd),
      latest_invoice: invoiceId,
      test_clock: plan.timeline.clock,
      cancel_at: plan.cancelAt !== null ? sec(plan.cancelAt) : params.cancel_at_period_end === true ? sec(first.periodEnd) : null,
    }
  })
}

/** Starts the subscription's cycle (its first invoice) and queues its `cancel_at`. */
function startBilling(ports: ResourcePorts, call: OperationCall, plan: NewSubscription, created: Json, invoiceId: string): Json {
  const { first, rec } = plan
  const started = ports.billing.start(
    call.scope,
    created,
    {
      timeline: plan.timeline,
      interval: rec.interval,
      count: rec.interval_count,
      anchor: first.anchor,
      periodStart: plan.now,
      periodEnd: first.periodEnd,
      n: first.n,
      trialEnd: first.trialEnd,
      firstInvoice: invoiceId,
      prorate: first.prorate,
      payNow: plan.paymentBehavior !== 'default_incomplete' && !plan.sendInvoice,
    },
    call.origin,
  )
  if (plan.cancelAt !== null) ports.billing.scheduleCancel(call.scope, started.id, plan.cancelAt)
  return started
}
