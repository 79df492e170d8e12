import { DAY } from '#kernel/time.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import { fieldEquals, type Json, pageV1, passesRange } from '../../engine/list.js'
import { subList } from '../../engine/sub-list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { boundary } from '../calendar.js'
import { deleteSubscriptionDiscount } from '../catalog/discount-removal.js'
import { lineAmount } from '../pricing.js'
import type { ItemChange } from '../prorations.js'
import { hasPaymentMethod, startWithoutPayment } from './pending-setup-intent.js'
import { cancelAtParam, trialEndParam } from './subscription-dates.js'
import {
  canceledRefusal,
  checkCollection,
  checkDistinctPrices,
  checkItemCount,
  checkOneCycle,
  checkPaymentMethod,
  checkQuantity,
  couponsOf,
  entriesOf,
  invalid,
  itemPrice,
  missing,
  type PlannedItem,
  planItems,
  plannedQuantity,
  prorationTiming,
  type Recurring,
  taxRatesOf,
  termsOf,
} from './subscription-params.js'
import { migrateSubscription, pauseSubscription, resumeSubscription } from './subscription-pause.js'

const sec = (ms: number) => Math.floor(ms / 1000)

/** List params that filter by a field's value when `subscriptions.list` filters by itself. */
const LIST_FILTERS = ['customer', 'collection_method', 'test_clock'] as const

/** Whether one of the subscription's items has this price. */
const hasPrice = (sub: Json, price: unknown): boolean =>
  ((sub.items as { data?: Json[] } | undefined)?.data ?? []).some((i) => (i.price as Json | undefined)?.id === price)

/**
 * The items an update leaves (kept items first, then `items` in order): at most 20, each price at
 * most once.
 */
function checkPlannedItems(current: readonly Json[], changes: readonly PlannedItem[]): void {
  const touched = new Set(changes.map((c) => c.existing?.id))
  const kept = current.filter((item) => !touched.has(item.id)).map((item) => String((item.price as Json).id))
  const planned = changes.map((c) => (c.deleted ? undefined : String(c.price.id)))
  checkItemCount(kept.length + planned.filter((p) => p !== undefined).length, 'items')
  checkDistinctPrices([...kept, ...planned], (i) => `items[${i - kept.length}][price]`)
}

/** Fields of a new subscription item: the price object, its quantity (licensed only) and period. */
function itemFields(price: Json, quantity: number | undefined, subId: string, start: number, end: number, created: number) {
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
 * Subscriptions with billing: items of recurring prices of one currency and interval, trials,
 * `billing_cycle_anchor`, a first invoice paid at once, periods on the due-time queue (or the
 * customer's test clock), cancellation now or at period end, quantity changes counted against the
 * subscription's limit. See docs/billing.md.
 */
export const subscriptions: ResourceDeclaration<ResourcePorts> = {
  type: 'Subscription',
  object: 'subscription',
  idPrefix: 'sub',
  eventPrefix: 'customer.subscription',
  defaults: ({ id, created }) => ({
    billing_cycle_anchor: created,
    collection_method: 'charge_automatically',
    currency: 'usd',
    items: subList(`/v1/subscription_items?subscription=${id}`),
    start_date: created,
    status: 'active',
  }),
  behaviours: {
    'subscriptions.pause': pauseSubscription,
    'subscriptions.resume': resumeSubscription,
    'subscriptions.migrate': migrateSubscription,
    'subscriptions.deleteDiscount': deleteSubscriptionDiscount,
    'subscriptions.list'(call, next, { engine }) {
      const { status, ...params } = call.params
      // A status the object can hold filters by equality; the others are the provider's sets (the
      // default leaves out canceled subscriptions; `ended` is canceled and incomplete_expired).
      if (typeof status === 'string' && status !== 'all' && status !== 'ended') return next()
      const passes = (s: unknown) =>
        status === 'all' ? true : status === 'ended' ? s === 'canceled' || s === 'incomplete_expired' : s !== 'canceled'
      const found = engine
        .resource('subscription')
        .list(call.scope)
        .filter(
          (o) =>
            passes(o.status) &&
            (params.created === undefined || passesRange(o.created, params.created, 'created')) &&
            LIST_FILTERS.every((f) => params[f] === undefined || fieldEquals(o[f], params[f])) &&
            (params.price === undefined || hasPrice(o, params.price)),
        )
      return pageV1(found, params, '/v1/subscriptions', 'subscription')
    },
    'subscriptions.cancel'(call, _next, { engine, ports }) {
      const sub = engine.resource('subscription').require(call.scope, call.path.id ?? '')
      if (sub.status === 'canceled') {
        throw tableError('resource_missing', { kind: 'subscription', id: sub.id })
      }
      const { invoice_now: invoiceNow, prorate } = call.params
      return ports.billing.cancel(call.scope, sub.id, { invoiceNow: invoiceNow === true, prorate: prorate === true }, call.origin)
    },
    'subscriptions.create'(call, _next, { engine, ports }) {
      const {
        items,
        customer: customerId,
        trial_end: trialEndParam,
        trial_period_days: trialDaysParam,
        billing_cycle_anchor: anchorParam,
        cancel_at: cancelAtValue,
        payment_behavior: paymentBehavior,
        proration_behavior: _proration,
        off_session: _offSession,
        discounts: discountsParam,
        default_tax_rates: defaultRatesParam,
        expand: _expand,
        ...params
      } = call.params
      if (typeof customerId !== 'string' || customerId === '') throw missing('customer')
      const customer = engine.resource('customer').requireParam(call.scope, customerId, 'customer')
      const entries = entriesOf(items)
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
      const { currency, rec } = checkOneCycle(
        checked.map((c) => c.price),
        'items',
      )
      ports.billing.checkCurrency(call.scope, customer.id, currency, 'subscription', 'items[0][price]')
      checkPaymentMethod(call, ports, customerId, params.default_payment_method)
      const sendInvoice = checkCollection(params.collection_method, params.days_until_due)
      const coupons = couponsOf(engine, call, discountsParam)
      const defaultRates = taxRatesOf(engine, call, defaultRatesParam, 'default_tax_rates')
      const itemRates = entries.map((entry, i) => taxRatesOf(engine, call, entry.tax_rates, `items[${i}][tax_rates]`))
      const timeline = ports.billing.timelineOfCustomer(call.scope, customer)
      const now = timeline.now()
      let trialEnd: number | null = null
      if (trialEndParam !== undefined && trialEndParam !== 'now') {
        const t = Number(trialEndParam) * 1000
        if (!Number.isFinite(t) || t <= now) throw invalid('trial_end', 'must be an integer Unix timestamp in the future')
        trialEnd = t
      } else if (trialDaysParam !== undefined) {
        const d = Number(trialDaysParam)
        if (!Number.isSafeInteger(d) || d < 0 || d > 730)
          throw invalid('trial_period_days', 'must be an integer between 0 and 730')
        if (d > 0) trialEnd = now + d * DAY
      } else if (rec.trial_period_days !== null && rec.trial_period_days > 0) trialEnd = now + rec.trial_period_days * DAY
      let anchor = trialEnd ?? now
      let periodEnd = boundary(anchor, rec.interval, rec.interval_count, 1)
      let n = 1
      let prorate = 1
      if (anchorParam !== undefined && trialEnd === null) {
        const a = Number(anchorParam) * 1000
        if (!Number.isFinite(a) || a < now)
          throw invalid('billing_cycle_anchor', 'must be an integer Unix timestamp in the future')
        const fullEnd = boundary(now, rec.interval, rec.interval_count, 1)
        if (a > fullEnd) throw invalid('billing_cycle_anchor', 'cannot be later than the end of the first full billing period')
        if (a > now) {
          anchor = a
          periodEnd = a
          n = 0
          // The first, shorter period is prorated by time, as the provider's default proration does.
          const fullStart = boundary(a, rec.interval, rec.interval_count, -1)
          prorate = (a - now) / (a - fullStart)
        }
      }
      if (trialEnd !== null) {
        periodEnd = trialEnd
        n = 0
      }
      const cancelAt = cancelAtParam(cancelAtValue, now, periodEnd) ?? null
      const firstAmount =
        trialEnd !== null
          ? 0
          : checked.reduce(
              (sum, c) =>
                sum +
                ((c.price.recurring as Recurring).usage_type === 'metered'
                  ? 0
                  : Math.round(lineAmount(c.price, c.quantity ?? 1) * prorate)),
              0,
            )
      // A `send_invoice` subscription is active at once: its first invoice is due later, not charged.
      const status = trialEnd !== null ? 'trialing' : firstAmount > 0 && !sendInvoice ? 'incomplete' : 'active'
      // `error_if_incomplete`: a first payment that would fail is refused before anything is made.
      if (status === 'incomplete' && paymentBehavior === 'error_if_incomplete') {
        ports.billing.checkPayable(call.scope, customerId, params.default_payment_method)
      }
      // Every check has passed: the prices `price_data` describes are made now.
      for (const c of checked) c.price = c.planned.make()
      const invoiceId = ports.billing.newInvoiceId()
      const subs = engine.resource('subscription')
      const created = subs.create(call.scope, { ...params, customer: customerId }, call.origin, (sub) => {
        const made = checked.map((c, i) =>
          engine.resource('subscription_item').create(call.scope, { metadata: c.entry.metadata ?? {} }, call.origin, {
            ...itemFields(c.price, c.quantity, sub.id, now, periodEnd, now),
            tax_rates: itemRates[i] ?? [],
          }),
        )
        for (const item of made) {
          if (item.quantity === undefined) engine.resource('subscription_item').put(call.scope, item.id, { quantity: undefined })
        }
        const stored = made.map((m) => engine.resource('subscription_item').require(call.scope, m.id))
        return {
          items: subList(`/v1/subscription_items?subscription=${sub.id}`, stored),
          default_tax_rates: defaultRates,
          currency,
          status,
          created: sec(now),
          start_date: sec(now),
          billing_cycle_anchor: sec(anchor),
          trial_start: trialEnd === null ? null : sec(now),
          trial_end: trialEnd === null ? null : sec(trialEnd),
          latest_invoice: invoiceId,
          test_clock: timeline.clock,
          cancel_at: cancelAt !== null ? sec(cancelAt) : params.cancel_at_period_end === true ? sec(periodEnd) : null,
        }
      })
      if (coupons.length > 0) {
        const ids = coupons.map((c) => ports.billing.discounts.create(call.scope, c, customerId, created.id, now, call.origin).id)
        subs.put(call.scope, created.id, { discounts: ids })
      }
      const started = ports.billing.start(
        call.scope,
        created,
        {
          timeline,
          interval: rec.interval,
          count: rec.interval_count,
          anchor,
          periodStart: now,
          periodEnd,
          n,
          trialEnd,
          firstInvoice: invoiceId,
          prorate,
          payNow: paymentBehavior !== 'default_incomplete' && !sendInvoice,
        },
        call.origin,
      )
      if (cancelAt !== null) ports.billing.scheduleCancel(call.scope, started.id, cancelAt)
      if (paymentBehavior === 'default_incomplete' && !sendInvoice) {
        return startWithoutPayment(engine, ports, call, started, invoiceId)
      }
      // Nothing to pay now and no payment method to charge later: the provider's automatic setup
      // intent cannot complete, so it is left on the subscription for the customer's browser.
      if (!sendInvoice && !hasPaymentMethod(engine, call.scope, started)) {
        return startWithoutPayment(engine, ports, call, started, invoiceId)
      }
      return started
    },
    'subscriptions.update'(call, next, { engine, ports }) {
      const id = call.path.id ?? ''
      const subs = engine.resource('subscription')
      const sub = subs.require(call.scope, id)
      const {
        items,
        proration_behavior: prorationBehavior,
        proration_date: prorationDate,
        payment_behavior: _pb,
        discounts: discountsParam,
        default_tax_rates: defaultRatesParam,
        expand: _e,
        cancel_at: cancelAtValue,
        trial_end: trialEndValue,
        ...params
      } = call.params
      if (sub.status === 'canceled') {
        const rest = Object.keys(call.params).filter((k) => k !== 'expand')
        if (!rest.every((k) => k === 'metadata' || k === 'cancellation_details')) throw canceledRefusal()
        return subs.update(call.scope, id, params, call.origin, {})
      }
      checkPaymentMethod(call, ports, String(sub.customer), params.default_payment_method)
      const coupons = couponsOf(engine, call, discountsParam)
      const defaultRates =
        defaultRatesParam === undefined ? undefined : taxRatesOf(engine, call, defaultRatesParam, 'default_tax_rates')
      const entries = entriesOf(items)
      checkItemCount(entries.length, 'items')
      const current = ports.billing.itemsOf(call.scope, id)
      const planned = planItems(engine, call, sub, current, entries, 'items')
      checkPlannedItems(current, planned)
      const state = ports.billing.subState(call.scope, id)
      const timing = prorationTiming(state, prorationBehavior, prorationDate, 'proration_date')
      const now = state?.timeline.now() ?? engine.now() * 1000
      const cancelAt = cancelAtParam(cancelAtValue, now, state?.periodEnd ?? now)
      const trialEnd = trialEndParam(trialEndValue, now)
      const quantityUpdate = planned.some(
        (c) => c.existing !== undefined && c.entry.quantity !== undefined && Number(c.existing.quantity) !== c.quantity,
      )
      if (quantityUpdate) ports.billing.countQuantityUpdate(call.scope, id)
      // Every check has passed: the prices `price_data` describes are made now.
      const changes = planned.map((c) => (c.make === undefined ? c : { ...c, price: c.make() }))
      const itemsR = engine.resource('subscription_item')
      const made: ItemChange[] = []
      for (const c of changes) {
        if (c.deleted && c.existing !== undefined) {
          itemsR.delete(call.scope, c.existing.id, call.origin)
          made.push({ item: String(c.existing.id), before: termsOf(c.existing), after: null })
        } else if (c.existing !== undefined) {
          const quantity = plannedQuantity(c)
          itemsR.put(call.scope, c.existing.id, { price: c.price, quantity })
          made.push({
            item: String(c.existing.id),
            before: termsOf(c.existing),
            after: { price: c.price, quantity: Number(quantity ?? 1) },
          })
        } else if (state !== undefined) {
          const item = itemsR.create(
            call.scope,
            { metadata: c.entry.metadata ?? {} },
            call.origin,
            itemFields(c.price, c.quantity, id, state.periodStart, state.periodEnd, state.timeline.now()),
          )
          if (c.quantity === undefined) itemsR.put(call.scope, item.id, { quantity: undefined })
          made.push({ item: item.id, before: null, after: { price: c.price, quantity: Number(c.quantity ?? 1) } })
        }
      }
      const fields: Record<string, unknown> = {}
      if (entries.length > 0) fields.items = ports.billing.itemList(call.scope, id)
      if (defaultRates !== undefined) fields.default_tax_rates = defaultRates
      if (discountsParam !== undefined) {
        const now = state?.timeline.now() ?? 0
        fields.discounts = coupons.map(
          (c) => ports.billing.discounts.create(call.scope, c, String(sub.customer), id, now, call.origin).id,
        )
      }
      if (params.cancel_at_period_end !== undefined && state !== undefined) {
        const on = params.cancel_at_period_end === true || params.cancel_at_period_end === 'true'
        fields.cancel_at = on ? sec(state.periodEnd) : null
        fields.canceled_at = on ? sec(state.timeline.now()) : null
        if (cancelAt === undefined) ports.billing.scheduleCancel(call.scope, id, null)
      }
      if (cancelAt !== undefined) {
        fields.cancel_at = cancelAt === null ? null : sec(cancelAt)
        fields.canceled_at = cancelAt === null ? null : sec(now)
        ports.billing.scheduleCancel(call.scope, id, cancelAt)
      }
      if (typeof trialEnd === 'number') Object.assign(fields, ports.billing.startTrial(call.scope, id, trialEnd))
      if (trialEnd === 'now' && sub.status === 'trialing') fields.trial_end = sec(now)
      void next
      const updated = subs.update(call.scope, id, params, call.origin, fields)
      if (state !== undefined && made.length > 0) {
        ports.billing.prorate(call.scope, state, made, timing.behavior, timing.at, call.origin)
      }
      if (trialEnd === 'now') ports.billing.endTrialNow(call.scope, id)
      return state === undefined || (made.length === 0 && trialEnd !== 'now') ? updated : subs.require(call.scope, id)
    },
  },
}
