import { boundary, type Interval } from '../billing/calendar.js'
import { entriesOf, invalid } from '../billing/subscriptions/subscription-params.js'
import { checkMetadata } from '../engine/checks.js'
import type { OperationCall } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { tableError } from '../service-error.js'

/** The shortest trial a session's `subscription_data[trial_end]` may ask for, as the provider requires (seconds). */
const TWO_DAYS = 2 * 24 * 60 * 60

/** The billing interval of the session's recurring prices. */
export interface SessionInterval {
  readonly interval: Interval
  readonly interval_count: number
}

/** The `subscriptions.create` params a session's `subscription_data` gives the subscription it makes. */
export type SubscriptionData = Readonly<Record<string, unknown>>

const intOf = (value: unknown): number | undefined => {
  const n = Number(value)
  return value === undefined || value === '' || !Number.isSafeInteger(n) ? undefined : n
}

/**
 * Checks a session's `subscription_data` as the provider does (only in `subscription` mode; a trial
 * of 1 to 730 days, or a `trial_end` at least two days ahead, not both; a future
 * `billing_cycle_anchor` within the first full period; tax rates that exist; metadata within its
 * limits) and answers the params the subscription is created with, or undefined when there is
 * none. Changes nothing.
 *
 * @example
 * subscriptionDataOf(engine, call, 'subscription', { interval: 'month', interval_count: 1 }) // { trial_period_days: 7, ... }
 */
export function subscriptionDataOf(
  engine: Engine,
  call: OperationCall,
  mode: string,
  cycle: SessionInterval | undefined,
): SubscriptionData | undefined {
  const given = call.params.subscription_data
  if (given === undefined) return undefined
  if (mode !== 'subscription') throw tableError('checkout_subscription_data_mode', {}, { param: 'subscription_data' })
  const d = given as Readonly<Record<string, unknown>>
  const now = engine.now()
  const out: Record<string, unknown> = {}
  if (d.trial_period_days !== undefined && d.trial_end !== undefined) {
    throw tableError(
      'parameters_exclusive',
      { params: 'subscription_data[trial_period_days], subscription_data[trial_end]' },
      { param: 'subscription_data[trial_end]' },
    )
  }
  if (d.trial_period_days !== undefined) {
    const days = intOf(d.trial_period_days)
    if (days === undefined || days < 1 || days > 730)
      throw invalid('subscription_data[trial_period_days]', 'must be an integer between 1 and 730')
    out.trial_period_days = days
  }
  if (d.trial_end !== undefined) {
    const end = intOf(d.trial_end)
    if (end === undefined || end < now + TWO_DAYS)
      throw invalid('subscription_data[trial_end]', 'must be a Unix timestamp at least 48 hours in the future')
    out.trial_end = end
  }
  if (d.billing_cycle_anchor !== undefined) {
    const anchor = intOf(d.billing_cycle_anchor)
    if (anchor === undefined || anchor <= now)
      throw invalid('subscription_data[billing_cycle_anchor]', 'must be a Unix timestamp in the future')
    const fullEnd = cycle === undefined ? Number.POSITIVE_INFINITY : boundary(now * 1000, cycle.interval, cycle.interval_count, 1)
    if (anchor * 1000 > fullEnd)
      throw invalid('subscription_data[billing_cycle_anchor]', 'cannot be later than the end of the first full billing period')
    out.billing_cycle_anchor = anchor
  }
  if (d.metadata !== undefined) {
    checkMetadata(d.metadata)
    out.metadata = d.metadata
  }
  if (d.description !== undefined) out.description = String(d.description)
  if (d.default_tax_rates !== undefined) {
    const ids = Array.isArray(d.default_tax_rates) ? d.default_tax_rates : entriesOf(d.default_tax_rates)
    out.default_tax_rates = ids.map(
      (id, i) =>
        engine.resource('tax_rate').requireParam(call.scope, String(id), `subscription_data[default_tax_rates][${i}]`).id,
    )
  }
  return out
}

/**
 * The params to create a session's subscription with at completion, `now` (unix seconds) being the
 * customer's moment: a `trial_end` or `billing_cycle_anchor` that has passed since the session was
 * made is dropped (the trial is over, the cycle starts now), so completing never fails on it.
 *
 * @example
 * subscriptionParamsAt({ trial_end: 1700000000, metadata: {} }, 1800000000) // { metadata: {} }
 */
export function subscriptionParamsAt(data: SubscriptionData | undefined, now: number): Record<string, unknown> {
  if (data === undefined) return {}
  const { trial_end: trialEnd, billing_cycle_anchor: anchor, ...rest } = data
  return {
    ...rest,
    ...(typeof trialEnd === 'number' && trialEnd > now ? { trial_end: trialEnd } : {}),
    ...(typeof anchor === 'number' && anchor > now ? { billing_cycle_anchor: anchor } : {}),
  }
}

/**
 * Whether a session's subscription starts in a trial: its subscription parameters carry a
 * `trial_period_days` or a `trial_end`, or one of its prices has a trial of its own. Its first
 * invoice then charges only the one-time lines, and the session's totals show just those.
 *
 * @example
 * startsInTrial({ trial_period_days: 7 }, [price]) // true
 */
export function startsInTrial(
  params: Readonly<Record<string, unknown>> | undefined,
  prices: readonly Readonly<Record<string, unknown>>[],
): boolean {
  if (params?.trial_period_days !== undefined || params?.trial_end !== undefined) return true
  return prices.some(
    (p) => Number((p.recurring as { trial_period_days?: unknown } | null | undefined)?.trial_period_days ?? 0) > 0,
  )
}
