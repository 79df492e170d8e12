import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'
import { isMetered } from './lines.js'

/**
 * A monetary amount as credit objects carry it.
 *
 * @example
 * monetary('usd', 500) // { monetary: { currency: 'usd', value: 500 }, type: 'monetary' }
 */
export const monetary = (currency: string, value: number) => ({ monetary: { currency, value }, type: 'monetary' })

/** The value of a credit object's monetary amount. */
const amountValue = (amount: unknown) => Number((amount as { monetary?: { value?: unknown } } | null)?.monetary?.value ?? 0)

/**
 * The engine's credit grants.
 *
 * @example
 * grantsOf(ctx).get(scope, 'credgr_1')
 */
export const grantsOf = (ctx: BillingContext) => ctx.engine.resource('billing.credit_grant')

/**
 * The engine's credit balance transactions.
 *
 * @example
 * txnsOf(ctx).list(scope)
 */
export const txnsOf = (ctx: BillingContext) => ctx.engine.resource('billing.credit_balance_transaction')

/**
 * What is left of a grant: its credits less its debits.
 *
 * @example
 * remaining(ctx, scope, 'credgr_1') // 500
 */
export function remaining(ctx: BillingContext, scope: Scope, grantId: string): number {
  let left = 0
  for (const t of txnsOf(ctx).list(scope)) {
    if (t.credit_grant !== grantId) continue
    if (t.type === 'credit') left += amountValue((t.credit as { amount: unknown }).amount)
    else left -= amountValue((t.debit as { amount: unknown }).amount)
  }
  return left
}

/**
 * Whether a grant can be used at `t` (unix seconds): in effect, not expired, not voided.
 *
 * @example
 * usable(grant, sec(now)) // false once the grant is voided
 */
export function usable(grant: Json, t: number): boolean {
  if (grant.voided_at !== null && grant.voided_at !== undefined) return false
  if (typeof grant.effective_at === 'number' && grant.effective_at > t) return false
  return !(typeof grant.expires_at === 'number' && grant.expires_at <= t)
}

/**
 * Whether a grant applies to a price: every metered price, or the prices it names.
 *
 * @example
 * appliesTo(grant, meteredPrice) // true for a grant scoped to `price_type: metered`
 */
export function appliesTo(grant: Json, price: Json): boolean {
  const scope = (grant.applicability_config as { scope?: { price_type?: unknown; prices?: { id: unknown }[] } }).scope
  if (Array.isArray(scope?.prices) && scope.prices.length > 0) return scope.prices.some((p) => p.id === price.id)
  return scope?.price_type === 'metered' && isMetered(price)
}

/**
 * A balance transaction of a grant (`billing.credit_balance_transaction.created`).
 *
 * @example
 * recordTxn(ctx, scope, grant, origin, { type: 'credit', credit }, grant.created)
 */
export function recordTxn(
  ctx: BillingContext,
  scope: Scope,
  grant: Json,
  origin: Origin,
  fields: Record<string, unknown>,
  at: number,
): Json {
  return txnsOf(ctx).create(scope, {}, origin, {
    credit: null,
    debit: null,
    credit_grant: grant.id,
    effective_at: at,
    test_clock: grant.test_clock ?? null,
    ...fields,
  })
}
