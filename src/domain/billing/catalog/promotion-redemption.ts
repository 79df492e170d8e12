import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Scope } from '../../mode.js'
import { invalidRequest } from '../../service-error.js'

/** A coupon about to be applied, and the promotion code it came through (if any). */
export interface Redemption {
  readonly coupon: Json
  readonly promotionCode: Json | undefined
}

/** Who redeems and for how much: what a promotion code's restrictions are checked against. */
export interface RedemptionContext {
  /** The customer the discount is for (none yet: a new customer, as in a checkout without one). */
  readonly customer: string | undefined
  /** The order's amount before discounts, in `currency` (`undefined`: not known, not checked). */
  readonly amount?: number | undefined
  readonly currency?: string | undefined
  /** Unix seconds (the customer's clock when it has one). */
  readonly now: number
}

const refuse = (param: string, message: string, code?: string) =>
  invalidRequest(message, code === undefined ? { param } : { param, code })

/** The amount in the currency's major unit, as the provider writes it in its messages (`10.00 usd`). */
function major(amount: number, currency: string): string {
  return `${(amount / 100).toFixed(2)} ${currency}`
}

/** Whether a customer has paid anything before: a succeeded charge or a paid invoice with an amount. */
function hasTransactions(engine: Engine, scope: Scope, customer: string): boolean {
  const charged = engine
    .resource('charge')
    .list(scope)
    .some((c) => c.customer === customer && c.status === 'succeeded')
  return (
    charged ||
    engine
      .resource('invoice')
      .list(scope)
      .some((i) => i.customer === customer && i.status === 'paid' && Number(i.amount_paid) > 0)
  )
}

/**
 * Refuses a coupon that can no longer be redeemed, as the provider does (400 `coupon_expired` on
 * the param that named it): past its `redeem_by`, or redeemed `max_redemptions` times.
 *
 * @example
 * checkCoupon(coupon, 'discounts[0][coupon]', now) // throws 400 coupon_expired once redeem_by has passed
 */
export function checkCoupon(coupon: Json, param: string, now: number): void {
  const used = Number(coupon.times_redeemed ?? 0)
  const expired =
    coupon.valid === false ||
    (typeof coupon.redeem_by === 'number' && now >= coupon.redeem_by) ||
    (typeof coupon.max_redemptions === 'number' && used >= coupon.max_redemptions)
  if (expired) throw refuse(param, `Coupon expired: ${String(coupon.id)}`, 'coupon_expired')
}

/**
 * Refuses a promotion code its own terms do not allow here, before anything changes: inactive,
 * expired (`expires_at`), used up (`max_redemptions`), for another `customer`, for first-time
 * customers only (`restrictions.first_time_transaction`) when the customer has paid before, or an
 * order below `restrictions.minimum_amount` in `minimum_amount_currency`. 400 on `param`.
 *
 * @example
 * checkPromotionCode(engine, scope, promo, 'discounts[0][promotion_code]', { customer: 'cus_1', amount: 500, currency: 'usd', now })
 */
export function checkPromotionCode(engine: Engine, scope: Scope, promo: Json, param: string, ctx: RedemptionContext): void {
  const code = String(promo.code ?? promo.id)
  if (typeof promo.expires_at === 'number' && ctx.now >= promo.expires_at) {
    throw refuse(param, `This promotion code has expired: ${code}.`)
  }
  if (typeof promo.max_redemptions === 'number' && Number(promo.times_redeemed ?? 0) >= promo.max_redemptions) {
    throw refuse(param, `This promotion code has reached its maximum number of redemptions: ${code}.`)
  }
  if (promo.active === false) throw refuse(param, `This promotion code is inactive: ${code}.`)
  const owner = typeof promo.customer === 'object' && promo.customer !== null ? (promo.customer as Json).id : promo.customer
  if (typeof owner === 'string' && owner !== ctx.customer) {
    throw refuse(param, `This promotion code cannot be redeemed by this customer: ${code}.`)
  }
  const r = (promo.restrictions ?? {}) as Json
  if (r.first_time_transaction === true && ctx.customer !== undefined && hasTransactions(engine, scope, ctx.customer)) {
    throw refuse(param, `This promotion code cannot be redeemed because the associated customer has prior transactions: ${code}.`)
  }
  const min = typeof r.minimum_amount === 'number' ? r.minimum_amount : undefined
  if (min !== undefined && ctx.amount !== undefined) {
    const currency = String(r.minimum_amount_currency ?? ctx.currency)
    if (ctx.currency !== currency || ctx.amount < min) {
      throw refuse(param, `This promotion code requires a minimum order of ${major(min, currency)}: ${code}.`)
    }
  }
}

/**
 * Counts each redemption once it is made: `times_redeemed` of the coupon and of its promotion
 * code; a coupon redeemed `max_redemptions` times is no longer `valid`, a code is then inactive.
 *
 * @example
 * redeem(engine, scope, [{ coupon, promotionCode: promo }]) // both times_redeemed + 1
 */
export function redeem(engine: Engine, scope: Scope, redemptions: readonly Redemption[]): void {
  for (const { coupon, promotionCode } of redemptions) {
    const coupons = engine.resource('coupon')
    const stored = coupons.get(scope, String(coupon.id))
    if (stored !== undefined) {
      const used = Number(stored.times_redeemed ?? 0) + 1
      const spent = typeof stored.max_redemptions === 'number' && used >= stored.max_redemptions
      coupons.put(scope, String(stored.id), spent ? { times_redeemed: used, valid: false } : { times_redeemed: used })
    }
    if (promotionCode === undefined) continue
    const promos = engine.resource('promotion_code')
    const promo = promos.get(scope, String(promotionCode.id))
    if (promo === undefined) continue
    const used = Number(promo.times_redeemed ?? 0) + 1
    const spent = typeof promo.max_redemptions === 'number' && used >= promo.max_redemptions
    promos.put(scope, String(promo.id), spent ? { times_redeemed: used, active: false } : { times_redeemed: used })
  }
}
