import { errorMessage } from '#catalogue/errors.js'
import { SUBSCRIPTION_MAX_ITEMS } from '#catalogue/rules.js'
import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest, tableError } from '../../service-error.js'
import type { SubState } from '../billing-types.js'
import type { Interval } from '../calendar.js'
import { type PlannedPrice, plannedPrice } from '../catalog/inline-prices.js'
import { checkCoupon, checkPromotionCode, type Redemption, type RedemptionContext } from '../catalog/promotion-redemption.js'
import { lineAmount } from '../pricing.js'
import type { ItemChange, ItemTerms, ProrationBehavior } from '../prorations.js'

type Params = Readonly<Record<string, unknown>>

export const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })
export const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

/**
 * Refuses items whose prices differ from the first one's currency or billing interval, as
 * `subscriptions.create` does (`itemsParam`: where the items sit, `items` or a preview's
 * `subscription_details[items]`); answers the first price's currency and recurrence.
 *
 * @example
 * checkOneCycle([monthlyUsd, yearlyUsd], 'items') // throws: the same billing interval
 */
export function checkOneCycle(prices: readonly Json[], itemsParam: string): { currency: string; rec: Recurring } {
  const first = prices[0] as Json
  const currency = String(first.currency)
  const rec = first.recurring as Recurring
  prices.forEach((price, i) => {
    if (price.currency !== currency) {
      throw invalid(
        `${itemsParam}[${i}][price]`,
        `the price ${price.id} is in ${String(price.currency)}, but this subscription is in ${currency}: all prices on a subscription must have the same currency`,
      )
    }
    const r = price.recurring as Recurring
    if (r.interval !== rec.interval || r.interval_count !== rec.interval_count) {
      throw invalid(`${itemsParam}[${i}][price]`, 'all prices on a subscription must have the same billing interval')
    }
  })
  return { currency, rec }
}

/** `items` as a list of entries (the form decoder may give an object with numeric keys). */
export function entriesOf(items: unknown): Params[] {
  const list = Array.isArray(items) ? items : typeof items === 'object' && items !== null ? Object.values(items) : []
  return list.map((x) => (x ?? {}) as Params)
}

export interface Recurring {
  interval: Interval
  interval_count: number
  usage_type: 'licensed' | 'metered'
  trial_period_days: number | null
}

/** A recurring price of the scope named by `param`, refused otherwise. */
export function recurringPrice(engine: Engine, call: OperationCall, id: unknown, param: string): Json {
  if (typeof id !== 'string' || id === '') throw missing(param)
  const price = engine.resource('price').requireParam(call.scope, id, param)
  if (price.type !== 'recurring') {
    throw invalid(param, `the price ${id} is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\``)
  }
  if (price.active === false && call.heldPrices?.includes(id) !== true) throw invalid(param, `the price ${id} is not active`)
  return price
}

/**
 * The recurring price of an item entry: `price` (an id), or `price_data` describing a new price
 * (made by `make()` once every check has passed; until then `price` is a draft).
 */
export function itemPrice(engine: Engine, call: OperationCall, entry: Params, prefix: string, draftId: string): PlannedPrice {
  const param = prefix === '' ? 'price' : `${prefix}[price]`
  if (entry.price === undefined && entry.price_data !== undefined) {
    const planned = plannedPrice(engine, call, entry, prefix, draftId) as PlannedPrice
    const dataParam = prefix === '' ? 'price_data' : `${prefix}[price_data]`
    if (planned.price.type !== 'recurring') throw missing(`${dataParam}[recurring]`)
    return planned
  }
  const price = recurringPrice(engine, call, entry.price, param)
  return { price, make: () => price }
}

/** A licensed item's quantity (1 when left out); none for a metered one. */
export function checkQuantity(price: Json, quantity: unknown, param: string): number | undefined {
  const metered = (price.recurring as Recurring).usage_type === 'metered'
  if (quantity === undefined) return metered ? undefined : 1
  if (metered) throw invalid(param, 'quantity cannot be set on a metered price (usage comes from its meter)')
  const n = Number(quantity)
  if (!Number.isSafeInteger(n) || n < 0) throw invalid(param, 'must be a non-negative integer')
  // Amounts are integers of minor units: one past exact integers would bill a rounded amount.
  if (!Number.isSafeInteger(lineAmount(price, n))) {
    throw invalid(param, `the amount it bills (quantity × price ${price.id}) must be at most ${Number.MAX_SAFE_INTEGER}`)
  }
  return n
}

/** `items` of at most {@link SUBSCRIPTION_MAX_ITEMS} entries. */
export function checkItemCount(count: number, param: string): void {
  if (count > SUBSCRIPTION_MAX_ITEMS) throw invalid(param, `must contain at most ${SUBSCRIPTION_MAX_ITEMS} items`)
}

/** Each price at most once among a subscription's items (`prices[i]` is entry i's price id, or undefined). */
export function checkDistinctPrices(prices: readonly (string | undefined)[], paramOf: (i: number) => string): void {
  const seen = new Set<string>()
  prices.forEach((id, i) => {
    if (id === undefined) return
    if (seen.has(id)) throw invalid(paramOf(i), `Cannot add multiple subscription items with the same price: ${id}`)
    seen.add(id)
  })
}

/** What a canceled subscription refuses (all but `metadata` and `cancellation_details`). */
export const canceledRefusal = () => tableError('subscription_canceled')

/** One entry of `items` on an update, checked: the item it changes (if any), its price and quantity. */
export interface PlannedItem {
  readonly entry: Params
  readonly existing: Json | undefined
  readonly price: Json
  readonly quantity: number | undefined
  readonly deleted: boolean
  /** Makes the price `price_data` describes (`price` is its draft until then). */
  readonly make?: () => Json
}

/** Checks every entry of `items` against the subscription's current items (nothing changes). */
export function planItems(
  engine: Engine,
  call: OperationCall,
  sub: Json,
  current: readonly Json[],
  entries: readonly Params[],
  prefix: string,
): PlannedItem[] {
  return entries.map((entry, i) => {
    const existing = typeof entry.id === 'string' ? current.find((x) => x.id === entry.id) : undefined
    if (typeof entry.id === 'string' && existing === undefined) {
      throw invalidRequest(errorMessage('resource_missing', { kind: 'subscription_item', id: entry.id }), {
        code: 'resource_missing',
        param: `${prefix}[${i}][id]`,
      })
    }
    const planned =
      entry.price !== undefined || entry.price_data !== undefined
        ? itemPrice(engine, call, entry, `${prefix}[${i}]`, `price_draft_${i}`)
        : undefined
    const price = planned?.price ?? (existing?.price as Json | undefined)
    if (price === undefined) throw missing(`${prefix}[${i}][price]`)
    if (price.currency !== sub.currency) {
      throw invalid(
        `${prefix}[${i}][price]`,
        `the price ${price.id} is in ${String(price.currency)}, but this subscription is in ${String(sub.currency)}`,
      )
    }
    const quantity = checkQuantity(price, entry.quantity, `${prefix}[${i}][quantity]`)
    const deleted = entry.deleted === true || entry.deleted === 'true'
    return { entry, existing, price, quantity, deleted, ...(planned === undefined ? {} : { make: planned.make }) }
  })
}

/** What an item bills now. */
export const termsOf = (item: Json): ItemTerms => ({ price: item.price as Json, quantity: Number(item.quantity ?? 1) })

/** The quantity a planned entry leaves the item with. */
export const plannedQuantity = (p: PlannedItem): number | undefined =>
  p.existing !== undefined && p.entry.quantity === undefined ? (p.existing.quantity as number | undefined) : p.quantity

/**
 * The subscription's items as `planned` would leave them, and the changes it makes (new items
 * named by `newId(i)`): what a preview bills without changing anything.
 */
export function itemsAfter(
  current: readonly Json[],
  planned: readonly PlannedItem[],
  newId: (i: number) => string,
): { items: Json[]; changes: ItemChange[] } {
  const changes: ItemChange[] = []
  const byId = new Map(current.map((item) => [String(item.id), item]))
  planned.forEach((p, i) => {
    if (p.existing !== undefined) {
      const id = String(p.existing.id)
      if (p.deleted) {
        byId.delete(id)
        changes.push({ item: id, before: termsOf(p.existing), after: null })
        return
      }
      const next = { ...p.existing, price: p.price, quantity: plannedQuantity(p) }
      byId.set(id, next)
      changes.push({ item: id, before: termsOf(p.existing), after: termsOf(next) })
    } else if (!p.deleted) {
      const id = newId(i)
      const made = { id, object: 'subscription_item', price: p.price, quantity: p.quantity }
      byId.set(id, made)
      changes.push({ item: id, before: null, after: termsOf(made) })
    }
  })
  return { items: [...byId.values()], changes }
}

/** `proration_behavior` and when the change counts from: `proration_date` (within the current period) or now. */
export interface ProrationTiming {
  readonly behavior: ProrationBehavior
  readonly at: number
  readonly date?: number
}

/**
 * Reads `proration_behavior` (default `create_prorations`) and `proration_date` (unix seconds,
 * refused outside the subscription's current period), before anything changes.
 */
export function prorationTiming(state: SubState | undefined, behavior: unknown, date: unknown, param: string): ProrationTiming {
  const b = (typeof behavior === 'string' ? behavior : 'create_prorations') as ProrationBehavior
  const now = state?.timeline.now() ?? 0
  if (date === undefined || date === null) return { behavior: b, at: now }
  const seconds = Number(date)
  const ms = seconds * 1000
  if (state !== undefined && (ms < state.periodStart || ms > state.periodEnd)) {
    throw invalid(
      param,
      `must be within the subscription's current billing period (${Math.floor(state.periodStart / 1000)} to ${Math.floor(state.periodEnd / 1000)})`,
    )
  }
  return { behavior: b, at: ms, date: seconds }
}

export function checkPaymentMethod(call: OperationCall, ports: ResourcePorts, customer: string, pm: unknown): void {
  if (typeof pm !== 'string' || pm === '') return
  const found = ports.paymentMethods.get(call.scope, pm)
  if (found === undefined || found.customer !== customer) {
    throw tableError('payment_method_not_attached', { id: pm }, { param: 'default_payment_method' })
  }
}

/**
 * `collection_method` and `days_until_due` together, as the provider requires them: `send_invoice`
 * needs `days_until_due`, which `charge_automatically` refuses. Whether invoices are sent.
 */
export function checkCollection(method: unknown, days: unknown): boolean {
  if (method === 'send_invoice') {
    if (days === undefined || days === null) throw missing('days_until_due')
    return true
  }
  if (days !== undefined && days !== null) {
    throw invalid('days_until_due', "can only be set when collection_method is 'send_invoice'")
  }
  return false
}

/** Tax rates named by id (`''` clears: none), each checked. */
export function taxRatesOf(engine: Engine, call: OperationCall, ids: unknown, param: string): Json[] {
  const list = Array.isArray(ids) ? ids : typeof ids === 'object' && ids !== null ? Object.values(ids) : []
  return list.map((id, i) => {
    if (typeof id !== 'string') throw missing(`${param}[${i}]`)
    return engine.resource('tax_rate').requireParam(call.scope, id, `${param}[${i}]`)
  })
}

/**
 * The redemptions of `discounts: [{ coupon }]` or `[{ promotion_code }]` (the code's coupon), each
 * checked against its terms for `ctx` (a coupon past `redeem_by` or used up, a code inactive,
 * expired, used up, for another customer, for first-time customers, or below its minimum amount
 * are refused); `''` or `[]` clears: none.
 */
export function redemptionsOf(engine: Engine, call: OperationCall, discounts: unknown, ctx: RedemptionContext): Redemption[] {
  return entriesOf(discounts).map((entry, i) => {
    const promoParam = `discounts[${i}][promotion_code]`
    const promo =
      typeof entry.promotion_code === 'string' && entry.coupon === undefined
        ? engine.resource('promotion_code').requireParam(call.scope, entry.promotion_code, promoParam)
        : undefined
    if (promo !== undefined) checkPromotionCode(engine, call.scope, promo, promoParam, ctx)
    const id = promo === undefined ? entry.coupon : promotionCoupon(promo)
    const param = promo === undefined ? `discounts[${i}][coupon]` : promoParam
    if (typeof id !== 'string') throw missing(param)
    const coupon = engine.resource('coupon').requireParam(call.scope, id, param)
    checkCoupon(coupon, param, ctx.now)
    return { coupon, promotionCode: promo }
  })
}

/** The coupons of {@link redemptionsOf}. */
export function couponsOf(engine: Engine, call: OperationCall, discounts: unknown, ctx: RedemptionContext): Json[] {
  return redemptionsOf(engine, call, discounts, ctx).map((r) => r.coupon)
}

/**
 * The amount of items before discounts (each price's `unit_amount` times its quantity), what a
 * promotion code's minimum amount is checked against.
 */
export function itemsAmount(items: readonly Readonly<Record<string, unknown>>[]): number {
  return items.reduce((n, { price, quantity }) => {
    const unit = typeof price === 'object' && price !== null ? Number((price as Json).unit_amount ?? 0) : 0
    return n + unit * (typeof quantity === 'number' ? quantity : 1)
  }, 0)
}

/** The coupon id a promotion code stands for (`promotion.coupon`, or `coupon` in older versions' shape). */
function promotionCoupon(promo: Json): unknown {
  const of = (c: unknown) => (typeof c === 'object' && c !== null ? (c as { id?: unknown }).id : c)
  return of((promo.promotion as { coupon?: unknown } | undefined)?.coupon ?? promo.coupon)
}
