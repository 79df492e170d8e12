import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { boundary } from './calendar.js'
import type { Redemption } from './catalog/promotion-redemption.js'
import type { BillingContext } from './context.js'

/** What discounts take off one invoice: per line, and in total per discount. */
export interface Discounted {
  readonly lines: Json[]
  readonly totalDiscountAmounts: { amount: number; discount: string }[]
  readonly discountTotal: number
}

/**
 * Discounts: a coupon applied to a subscription (`discounts: [{ coupon }]`) is a `discount` object
 * with its `start` and, for `repeating`, its `end`. On an invoice it takes `percent_off` of each
 * discountable line (rounded half up per line) or `amount_off` of the discountable total (shared
 * between the lines in proportion, the remainder on the last), never below 0. A `once` discount
 * ends after the first invoice it applied to; `forever` never ends.
 *
 * @example
 * const discounts = new Discounts(engine)
 * discounts.apply(scope, lines, sub.discounts, now, 'usd').discountTotal // 500
 */
export class Discounts {
  readonly #engine: Engine
  constructor(engine: Engine) {
    this.#engine = engine
  }

  /** The discounts of `ids` in force at `t` (ms); all of them when `t` is null (a draft recounted). */
  active(scope: Scope, ids: unknown, t: number | null): Json[] {
    if (!Array.isArray(ids)) return []
    // A preview of a subscription not made yet carries its discounts as objects, never stored.
    return ids
      .map((id) =>
        typeof id === 'object' && id !== null && 'source' in id
          ? (id as Json)
          : this.#engine.resource('discount').get(scope, String(typeof id === 'string' ? id : (id as Json).id)),
      )
      .filter(
        (d): d is Json =>
          d !== undefined && (t === null || (Number(d.start) * 1000 <= t && (d.end === null || t < Number(d.end) * 1000))),
      )
  }

  /** Applies the discounts of `ids` in force at `t` to the lines of an invoice in `currency`. */
  apply(scope: Scope, lineObjects: readonly Json[], ids: unknown, t: number | null, currency: string): Discounted {
    const remaining = lineObjects.map((l) => (l.discountable === true ? Math.max(0, Number(l.amount)) : 0))
    const perLine: { amount: number; discount: string }[][] = lineObjects.map(() => [])
    const totals: { amount: number; discount: string }[] = []
    for (const d of this.active(scope, ids, t)) {
      const shares = sharesOf(couponOf(d), remaining, currency)
      const sum = shares.reduce((n, x) => n + x, 0)
      if (sum === 0) continue
      shares.forEach((share, i) => {
        if (share === 0) return
        remaining[i] = (remaining[i] as number) - share
        perLine[i]?.push({ amount: share, discount: String(d.id) })
      })
      totals.push({ amount: sum, discount: String(d.id) })
    }
    return {
      lines: lineObjects.map((l, i) => ({ ...l, discount_amounts: perLine[i] ?? [] })),
      totalDiscountAmounts: totals,
      discountTotal: totals.reduce((n, x) => n + x.amount, 0),
    }
  }

  /**
   * A coupon's discount on a subscription from `t` (ms): a `discount` object (not an operation of
   * its own), naming the promotion code it was redeemed through.
   */
  create(scope: Scope, r: Redemption, customer: string, subscription: string, t: number, origin: Origin): Json {
    const fields = fieldsOf(r.coupon, customer, subscription, t)
    fields.promotion_code = r.promotionCode === undefined ? null : String(r.promotionCode.id)
    return this.#engine.resource('discount').create(scope, {}, origin, fields)
  }

  /** A coupon's discount on a manual invoice (`invoices.create` `discounts`), applying to it alone. */
  createOnInvoice(scope: Scope, r: Redemption, customer: string, invoice: string, t: number, origin: Origin): Json {
    const fields = fieldsOf(r.coupon, customer, null, t)
    fields.invoice = invoice
    fields.promotion_code = r.promotionCode === undefined ? null : String(r.promotionCode.id)
    return this.#engine.resource('discount').create(scope, {}, origin, fields)
  }

  /** The discount a coupon would be on a subscription not made yet (a preview's; not stored). */
  unmade(scope: Scope, coupon: Json, customer: string, t: number, id: string): Json {
    return this.#engine.build('Discount', 'discount', scope, { ...fieldsOf(coupon, customer, null, t), id, object: 'discount' })
  }

  /** `once` discounts end with the invoice they applied to (made at `t`). */
  endOnce(scope: Scope, applied: readonly { discount: string }[], t: number): string[] {
    const ended: string[] = []
    for (const { discount } of applied) {
      const d = this.#engine.resource('discount').get(scope, discount)
      if (d === undefined || couponOf(d).duration !== 'once') continue
      this.#engine.resource('discount').put(scope, discount, { end: Math.floor(t / 1000) })
      ended.push(discount)
    }
    return ended
  }
}

/**
 * Billing's discounts.
 *
 * @example
 * const discounts = createDiscounts(ctx)
 * discounts.active(scope, sub.discounts, now) // the discount objects in force now
 */
export function createDiscounts(ctx: BillingContext): Discounts {
  return new Discounts(ctx.engine)
}

const couponOf = (d: Json) => (d.source as { coupon: Json }).coupon

/**
 * What one discount's coupon takes off each line's `remaining` amount: `percent_off` of each
 * (rounded half up), or `amount_off` (in the invoice's currency) shared in proportion, the
 * remainder on the last line that shares.
 */
function sharesOf(coupon: Json, remaining: readonly number[], currency: string): number[] {
  const shares = remaining.map(() => 0)
  if (typeof coupon.percent_off === 'number') {
    remaining.forEach((left, i) => {
      shares[i] = Math.min(left, Math.round((left * Number(coupon.percent_off)) / 100))
    })
  } else if (typeof coupon.amount_off === 'number' && coupon.currency === currency) {
    const base = remaining.reduce((n, x) => n + x, 0)
    const off = Math.min(base, Number(coupon.amount_off))
    let given = 0
    let last = -1
    remaining.forEach((left, i) => {
      if (left <= 0 || base === 0) return
      shares[i] = Math.floor((off * left) / base)
      given += shares[i] as number
      last = i
    })
    if (last >= 0) shares[last] = (shares[last] as number) + off - given
  }
  return shares
}

/** A coupon's discount fields on a subscription from `t` (ms): `repeating` ends after its months. */
function fieldsOf(coupon: Json, customer: string, subscription: string | null, t: number): Record<string, unknown> {
  const start = Math.floor(t / 1000)
  const end =
    coupon.duration === 'repeating' ? Math.floor(boundary(t, 'month', Number(coupon.duration_in_months ?? 0), 1) / 1000) : null
  return {
    source: { coupon, type: 'coupon' },
    customer,
    subscription,
    start,
    end,
    invoice: null,
    invoice_item: null,
    promotion_code: null,
    checkout_session: null,
    subscription_item: null,
  }
}
