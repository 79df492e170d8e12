import type { Behaviour, OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { type SubState, sec } from '../billing-types.js'
import { type Redemption, redeem } from '../catalog/promotion-redemption.js'
import { pauseCollectionField } from '../pause-collection.js'
import type { ItemChange } from '../prorations.js'
import { addInvoiceItems, checkAddInvoiceItems } from './add-invoice-items.js'
import { itemFields } from './subscription-create.js'
import { cancelAtParam, trialEndParam } from './subscription-dates.js'
import {
  canceledRefusal,
  checkDistinctPrices,
  checkItemCount,
  checkPaymentMethod,
  entriesOf,
  itemsAmount,
  type PlannedItem,
  planItems,
  plannedQuantity,
  prorationTiming,
  redemptionsOf,
  taxRatesOf,
  termsOf,
} from './subscription-params.js'

/** What an update sets besides its plain params, worked out before anything changes. */
interface UpdateTerms {
  readonly id: string
  readonly sub: Json
  readonly state: SubState | undefined
  readonly now: number
  readonly itemsGiven: boolean
  readonly defaultRates: Json[] | undefined
  /** The redemptions of `discounts`, when given (`undefined` leaves the discounts as they are). */
  readonly redemptions: Redemption[] | undefined
  readonly cancelAtPeriodEnd: unknown
  readonly cancelAt: number | null | undefined
  readonly trialEnd: number | 'now' | undefined
}

/**
 * `subscriptions.update`: a canceled subscription takes only `metadata` and
 * `cancellation_details`; otherwise every check first, then the items changed (prorated as
 * `proration_behavior` says), the discounts, tax rates, `cancel_at` and trial.
 *
 * @example
 * await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 3 }] }) // prorated
 */
export const updateSubscription: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
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
    add_invoice_items: addItemsParam,
    expand: _e,
    cancel_at: cancelAtValue,
    trial_end: trialEndValue,
    pause_collection: pauseParam,
    ...params
  } = call.params
  if (sub.status === 'canceled') return updateCanceled(engine, call, id, params)
  if (cancelAtValue !== undefined && params.cancel_at_period_end !== undefined)
    throw tableError('subscription_cancel_params_exclusive')
  checkPaymentMethod(call, ports, String(sub.customer), params.default_payment_method)
  const redemptions = redemptionsOf(engine, call, discountsParam, {
    customer: String(sub.customer),
    amount: itemsAmount(ports.billing.itemsOf(call.scope, id)),
    currency: String(sub.currency),
    now: Math.floor((ports.billing.subState(call.scope, id)?.timeline.now() ?? engine.now() * 1000) / 1000),
  })
  const defaultRates =
    defaultRatesParam === undefined ? undefined : taxRatesOf(engine, call, defaultRatesParam, 'default_tax_rates')
  const addItems = checkAddInvoiceItems(engine, call, addItemsParam, 'add_invoice_items', String(sub.currency))
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
  const pauseCollection = pauseCollectionField(pauseParam, now)
  if (planned.some(changesQuantity)) ports.billing.countQuantityUpdate(call.scope, id)
  // Every check has passed: the prices `price_data` describes are made now.
  const changes = planned.map((c) => (c.make === undefined ? c : { ...c, price: c.make() }))
  const made = changeItems(engine, call, id, state, changes)
  const fields = updateFields(ports, call, {
    id,
    sub,
    state,
    now,
    itemsGiven: entries.length > 0,
    defaultRates,
    redemptions: discountsParam === undefined ? undefined : redemptions,
    cancelAtPeriodEnd: params.cancel_at_period_end,
    cancelAt,
    trialEnd,
  })
  // Only a coupon or code the subscription did not already have is a new redemption.
  const fresh = redemptions.filter((r) => !alreadyApplied(engine, call, sub, r))
  const updated = subs.update(
    call.scope,
    id,
    params,
    call.origin,
    pauseCollection === undefined ? fields : { ...fields, pause_collection: pauseCollection },
  )
  if (discountsParam !== undefined) redeem(engine, call.scope, fresh)
  const resumesAt = pauseCollection?.resumes_at
  if (typeof resumesAt === 'number') ports.billing.pausing.resumeCollectionAt(call.scope, id, resumesAt)
  // Pending before the proration invoice is made, so the next invoice bills them.
  addInvoiceItems(engine, call, String(sub.customer), id, addItems)
  if (state !== undefined && made.length > 0) {
    ports.billing.prorate(call.scope, state, made, timing.behavior, timing.at, call.origin)
  }
  if (trialEnd === 'now') ports.billing.endTrialNow(call.scope, id)
  return state === undefined || (made.length === 0 && trialEnd !== 'now') ? updated : subs.require(call.scope, id)
}

/** A canceled subscription takes only `metadata` and `cancellation_details`. */
function updateCanceled(engine: Engine, call: OperationCall, id: string, params: Readonly<Record<string, unknown>>): unknown {
  const rest = Object.keys(call.params).filter((k) => k !== 'expand')
  if (!rest.every((k) => k === 'metadata' || k === 'cancellation_details')) throw canceledRefusal()
  return engine.resource('subscription').update(call.scope, id, params, call.origin, {})
}

/** Whether an entry changes an existing item's quantity (counted against the subscription's update limit). */
const changesQuantity = (c: PlannedItem): boolean =>
  c.existing !== undefined && c.entry.quantity !== undefined && Number(c.existing.quantity) !== c.quantity

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

/** Deletes, changes and adds the subscription's items; answers each change's terms before and after, for prorations. */
function changeItems(
  engine: Engine,
  call: OperationCall,
  id: string,
  state: SubState | undefined,
  changes: readonly PlannedItem[],
): ItemChange[] {
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
  return made
}

/** The fields the update sets: items, tax rates, discounts, `cancel_at` (its job queued or dropped) and the trial. */
function updateFields(ports: ResourcePorts, call: OperationCall, t: UpdateTerms): Record<string, unknown> {
  const { id, state, now, cancelAt } = t
  const fields: Record<string, unknown> = {}
  if (t.itemsGiven) fields.items = ports.billing.itemList(call.scope, id)
  if (t.defaultRates !== undefined) fields.default_tax_rates = t.defaultRates
  if (t.redemptions !== undefined) {
    const at = state?.timeline.now() ?? 0
    fields.discounts = t.redemptions.map(
      (r) => ports.billing.discounts.create(call.scope, r, String(t.sub.customer), id, at, call.origin).id,
    )
  }
  if (t.cancelAtPeriodEnd !== undefined && state !== undefined) {
    const on = t.cancelAtPeriodEnd === true || t.cancelAtPeriodEnd === 'true'
    fields.cancel_at = on ? sec(state.periodEnd) : null
    fields.canceled_at = on ? sec(state.timeline.now()) : null
    if (cancelAt === undefined) ports.billing.scheduleCancel(call.scope, id, null)
  }
  if (cancelAt !== undefined) {
    // `cancel_at` replaces the scheduled cancellation, one at the period end included: cleared
    // (`''`) nothing is scheduled, and a date is not "at the period end" (the provider's flag
    // follows `cancel_at`, which it sets itself for `cancel_at_period_end`).
    fields.cancel_at = cancelAt === null ? null : sec(cancelAt)
    fields.cancel_at_period_end = false
    fields.canceled_at = cancelAt === null ? null : sec(now)
    ports.billing.scheduleCancel(call.scope, id, cancelAt)
  }
  if (typeof t.trialEnd === 'number') Object.assign(fields, ports.billing.startTrial(call.scope, id, t.trialEnd))
  if (t.trialEnd === 'now' && t.sub.status === 'trialing') fields.trial_end = sec(now)
  return fields
}

/** Whether the subscription already has a discount of this coupon through the same promotion code. */
function alreadyApplied(engine: Engine, call: OperationCall, sub: Json, r: Redemption): boolean {
  const ids = Array.isArray(sub.discounts) ? sub.discounts : []
  return ids.some((d) => {
    const found = engine.resource('discount').get(call.scope, typeof d === 'string' ? d : String((d as Json).id))
    const coupon = (found?.source as { coupon?: Json } | undefined)?.coupon
    return coupon?.id === r.coupon.id && (found?.promotion_code ?? null) === (r.promotionCode?.id ?? null)
  })
}
