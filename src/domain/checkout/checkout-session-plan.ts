import { type PlannedPrice, plannedPrice } from '../billing/catalog/inline-prices.js'
import { checkCoupon, checkPromotionCode, type RedemptionContext } from '../billing/catalog/promotion-redemption.js'
import { lineAmount } from '../billing/pricing.js'
import { entriesOf } from '../billing/subscriptions/subscription-params.js'
import type { OperationCall } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import { tableError } from '../service-error.js'
import { type SessionInterval, type SubscriptionData, startsInTrial, subscriptionDataOf } from './checkout-subscription-data.js'

type Params = Readonly<Record<string, unknown>>

/** How long a session stays open by default, and the bounds of `expires_at` (seconds). */
const DAY = 24 * 60 * 60
const HALF_HOUR = 30 * 60

/** One line of a session as planned: its price (made on `make`), quantity, amounts and tax rates. */
export interface PlannedLine {
  readonly entry: Params
  readonly price: PlannedPrice
  readonly quantity: number
  readonly subtotal: number
  readonly discount: number
  readonly tax: number
  readonly taxes: readonly Readonly<Record<string, unknown>>[]
}

/** A checked session: its lines, the fields the engine sets on create, and when it expires. */
export interface CheckoutPlan {
  readonly lines: readonly PlannedLine[]
  /** What `subscription_data` gives the subscription the session makes. */
  readonly subscriptionData: SubscriptionData | undefined
  readonly fixed: Readonly<Record<string, unknown>>
  readonly expiresAt: number
}

const missing = (param: string) => tableError('parameter_missing', { param }, { param })

function quantityOf(entry: Params, param: string): number {
  const q = entry.quantity === undefined ? 1 : Number(entry.quantity)
  if (!Number.isSafeInteger(q) || q < 1) throw tableError('value_too_small', { min: 1 }, { param })
  return q
}

/**
 * The coupon of the session's first discount (a coupon id or a promotion code's), if any, checked
 * against its terms for the session's customer and subtotal.
 */
function couponOf(engine: Engine, call: OperationCall, ctx: RedemptionContext): Json | undefined {
  const first = entriesOf(call.params.discounts)[0]
  if (first === undefined) return undefined
  let param = 'discounts[0][coupon]'
  let id = first.coupon
  if (typeof first.promotion_code === 'string') {
    param = 'discounts[0][promotion_code]'
    const promo = engine.resource('promotion_code').requireParam(call.scope, first.promotion_code, param)
    checkPromotionCode(engine, call.scope, promo, param, ctx)
    const of = (c: unknown) => (typeof c === 'object' && c !== null ? (c as Json).id : c)
    id = of((promo.promotion as { coupon?: unknown } | undefined)?.coupon ?? promo.coupon)
  }
  if (typeof id !== 'string') return undefined
  const coupon = engine.resource('coupon').requireParam(call.scope, id, param)
  checkCoupon(coupon, param, ctx.now)
  return coupon
}

/** Each line's share of the coupon: a percentage of each, or a fixed amount shared pro rata (the last line takes the rounding). */
function discountsOf(coupon: Json | undefined, subtotals: readonly number[], currency: string | undefined): number[] {
  const total = subtotals.reduce((a, b) => a + b, 0)
  if (coupon === undefined || total === 0) return subtotals.map(() => 0)
  if (typeof coupon.percent_off === 'number') {
    const pct = coupon.percent_off
    return subtotals.map((s) => Math.round((s * pct) / 100))
  }
  if (typeof coupon.amount_off !== 'number' || coupon.currency !== currency) return subtotals.map(() => 0)
  const off = Math.min(coupon.amount_off, total)
  let left = off
  return subtotals.map((s, i) => {
    const share = i === subtotals.length - 1 ? left : Math.round((off * s) / total)
    left -= share
    return share
  })
}

/** The tax rates of an entry, checked, and the tax they add to `base` (inclusive rates add none). */
function taxesOf(
  engine: Engine,
  call: OperationCall,
  entry: Params,
  param: string,
  base: number,
): { tax: number; taxes: Record<string, unknown>[] } {
  const ids = Array.isArray(entry.tax_rates) ? entry.tax_rates : entriesOf(entry.tax_rates)
  const rates = ids.map((id, j) => engine.resource('tax_rate').requireParam(call.scope, String(id), `${param}[tax_rates][${j}]`))
  let tax = 0
  const taxes = rates.map((rate) => {
    const pct = Number(rate.percentage ?? 0)
    const amount = rate.inclusive === true ? Math.round(base - base / (1 + pct / 100)) : Math.round((base * pct) / 100)
    if (rate.inclusive !== true) tax += amount
    return { amount, rate, taxability_reason: null, taxable_amount: base }
  })
  return { tax, taxes }
}

/** The first shipping option's rate (its fixed amount is added to the total). */
function shippingOf(engine: Engine, call: OperationCall): Json | undefined {
  const first = entriesOf(call.params.shipping_options)[0]
  if (first === undefined || typeof first.shipping_rate !== 'string') return undefined
  return engine.resource('shipping_rate').requireParam(call.scope, first.shipping_rate, 'shipping_options[0][shipping_rate]')
}

function checkMode(call: OperationCall, prices: readonly Json[], priced: readonly boolean[]): string {
  const p = call.params
  const mode = p.mode
  if (mode === undefined) throw missing('mode')
  const recurring = prices.map((price) => price.recurring !== null && price.recurring !== undefined)
  prices.forEach((price, i) => {
    const held = call.heldPrices?.includes(String(price.id)) === true
    if (priced[i] && price.active !== true && !held)
      throw tableError('checkout_price_inactive', {}, { param: `line_items[${i}][price]` })
  })
  if (mode === 'setup') {
    if (prices.length > 0) throw tableError('checkout_line_items_in_setup', {}, { param: 'line_items' })
    if (p.currency === undefined && p.payment_method_types === undefined)
      throw tableError('checkout_setup_currency', {}, { param: 'currency' })
  } else {
    if (prices.length === 0) throw missing('line_items')
    const i = recurring.indexOf(true)
    if (mode === 'payment' && i >= 0) throw tableError('checkout_recurring_in_payment', {}, { param: `line_items[${i}][price]` })
    if (mode === 'subscription' && i < 0) throw tableError('checkout_no_recurring_price', {}, { param: 'line_items' })
  }
  if (mode === 'subscription' && p.customer_creation !== undefined)
    throw tableError('checkout_customer_creation_mode', {}, { param: 'customer_creation' })
  if (p.customer !== undefined && p.customer_email !== undefined)
    throw tableError('parameters_exclusive', { params: 'customer, customer_email' }, { param: 'customer_email' })
  const currencies = [...new Set(prices.map((price) => String(price.currency)))]
  if (currencies.length > 1)
    throw tableError('checkout_currencies', { currencies: currencies.join(', ') }, { param: 'line_items' })
  return String(mode)
}

function expiresAtOf(call: OperationCall, now: number): number {
  const at = call.params.expires_at
  if (at === undefined) return now + DAY
  const t = Number(at)
  if (!Number.isSafeInteger(t) || t < now + HALF_HOUR || t > now + DAY)
    throw tableError('checkout_expires_at_range', {}, { param: 'expires_at' })
  return t
}

/**
 * Checks a `checkout.sessions.create` call as the provider does (mode rules, active prices, one
 * currency, `customer` or `customer_email`, the expiry window, discounts, tax rates and shipping
 * rates that exist, `subscription_data`) and computes its lines and totals, changing nothing: the caller makes the
 * inline prices and the session afterwards.
 *
 * @example
 * const plan = planCheckoutSession(engine, call) // { lines: [...], fixed: { amount_total: 2000, currency: 'usd', ... }, expiresAt }
 */
export function planCheckoutSession(engine: Engine, call: OperationCall): CheckoutPlan {
  const entries = entriesOf(call.params.line_items)
  const priced = entries.map((entry, i) => {
    const price = plannedPrice(engine, call, entry, `line_items[${i}]`, `price_draft_${i}`)
    if (price === undefined) throw missing(`line_items[${i}][price]`)
    return { entry, price, quantity: quantityOf(entry, `line_items[${i}][quantity]`) }
  })
  const mode = checkMode(
    call,
    priced.map((p) => p.price.price),
    entries.map((e) => typeof e.price === 'string'),
  )
  const recurring = priced.map((p) => p.price.price.recurring as SessionInterval | null | undefined).find((r) => r != null)
  const subscriptionData = subscriptionDataOf(engine, call, mode, recurring ?? undefined)
  const expiresAt = expiresAtOf(call, engine.now())
  const currency = (priced[0]?.price.price.currency as string | undefined) ?? (call.params.currency as string | undefined)
  const subtotals = priced.map((p) => lineAmount(p.price.price as never, p.quantity))
  const customer = typeof call.params.customer === 'string' ? call.params.customer : undefined
  const amount = subtotals.reduce((a, b) => a + b, 0)
  const coupon = couponOf(engine, call, { customer, amount, currency, now: engine.now() })
  const shipping = shippingOf(engine, call)
  const discounts = discountsOf(coupon, subtotals, currency)
  const lines = priced.map((p, i) => {
    const subtotal = subtotals[i] ?? 0
    const discount = discounts[i] ?? 0
    return { ...p, subtotal, discount, ...taxesOf(engine, call, p.entry, `line_items[${i}]`, subtotal - discount) }
  })
  // A trial's first invoice charges only the one-time lines: the totals are what is due now, as the
  // provider shows them (a trial of recurring prices alone totals 0).
  const dueNow = startsInTrial(
    subscriptionData,
    priced.map((p) => p.price.price),
  )
    ? lines.filter((l) => l.price.price.recurring == null)
    : lines
  const sum = (f: (l: PlannedLine) => number) => dueNow.reduce((a, l) => a + f(l), 0)
  const shippingAmount = Number((shipping?.fixed_amount as { amount?: number } | undefined)?.amount ?? 0)
  const subtotal = sum((l) => l.subtotal)
  const discount = sum((l) => l.discount)
  const tax = sum((l) => l.tax)
  const fixed: Record<string, unknown> =
    mode === 'setup'
      ? { currency: currency ?? null, expires_at: expiresAt }
      : {
          amount_subtotal: subtotal,
          amount_total: subtotal - discount + tax + shippingAmount,
          currency: currency ?? null,
          expires_at: expiresAt,
          total_details: { amount_discount: discount, amount_shipping: shippingAmount, amount_tax: tax },
          ...(shipping === undefined
            ? {}
            : {
                shipping_cost: {
                  amount_subtotal: shippingAmount,
                  amount_tax: 0,
                  amount_total: shippingAmount,
                  shipping_rate: shipping.id,
                },
              }),
        }
  if (mode === 'payment' || mode === 'setup') fixed.customer_creation = call.params.customer_creation ?? 'if_required'
  return { lines, subscriptionData, fixed, expiresAt }
}
