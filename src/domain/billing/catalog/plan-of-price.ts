import type { Json } from '../../engine/list.js'

type Params = Readonly<Record<string, unknown>>

/**
 * The `plan` the provider shows beside a recurring price (a subscription item's `plan`): the same
 * id, amount, currency, period, usage type, product, billing scheme and tiers under the older
 * Plan names (`amount` for `unit_amount`, `transform_usage` for `transform_quantity`).
 *
 * @example
 * planOfPrice(price) // { id: price.id, object: 'plan', amount: 500, interval: 'month', interval_count: 1, ... }
 */
export function planOfPrice(price: Json): Record<string, unknown> {
  const recurring = (price.recurring ?? {}) as Params
  const plan: Record<string, unknown> = {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount ?? null,
    amount_decimal: price.unit_amount_decimal ?? null,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: recurring.interval ?? 'month',
    interval_count: recurring.interval_count ?? 1,
    livemode: price.livemode,
    metadata: price.metadata ?? {},
    meter: recurring.meter ?? null,
    nickname: price.nickname ?? null,
    product: typeof price.product === 'object' && price.product !== null ? (price.product as Json).id : (price.product ?? null),
    tiers_mode: price.tiers_mode ?? null,
    transform_usage: price.transform_quantity ?? null,
    trial_period_days: recurring.trial_period_days ?? null,
    usage_type: recurring.usage_type ?? 'licensed',
  }
  if (Array.isArray(price.tiers)) plan.tiers = price.tiers
  return plan
}
