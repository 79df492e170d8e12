import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'
import { applyCredits, restoreCredits } from './credit-application.js'
import { appliesTo, grantsOf, monetary, recordTxn, remaining, usable } from './credit-grant-ledger.js'

/**
 * Billing credits: grants of a customer, their balance transactions (a credit when granted, debits
 * when applied to an invoice, expired or voided), what is left on each, and their application to
 * an invoice's metered lines at finalization, before payment.
 *
 * @example
 * const credits = createCredits(ctx)
 * credits.apply(scope, invoice, now, origin) // fields that lower the invoice by the credits applied
 */
export type Credits = ReturnType<typeof createCredits>

/**
 * Billing credits over `ctx`: the module's functions with the context bound, made once per billing area.
 *
 * @example
 * createCredits(ctx).remaining(scope, 'credgr_1') // 500
 */
export function createCredits(ctx: BillingContext) {
  return {
    granted: granted.bind(null, ctx),
    drain: drain.bind(null, ctx),
    apply: applyCredits.bind(null, ctx),
    restore: restoreCredits.bind(null, ctx),
    remaining: remaining.bind(null, ctx),
    summary: summary.bind(null, ctx),
    appliesTo,
  }
}

/** The grant's credit (`credits_granted`), made with the grant. */
function granted(ctx: BillingContext, scope: Scope, grant: Json, origin: Origin): Json {
  const amount = (grant.amount as { monetary: { currency: string; value: number } }).monetary
  const at = typeof grant.effective_at === 'number' ? grant.effective_at : Number(grant.created)
  return recordTxn(
    ctx,
    scope,
    grant,
    origin,
    {
      type: 'credit',
      credit: {
        amount: monetary(amount.currency, amount.value),
        credits_application_invoice_voided: null,
        type: 'credits_granted',
      },
    },
    at,
  )
}

/** What is left of a grant leaves it (`credits_expired` or `credits_voided`). */
function drain(
  ctx: BillingContext,
  scope: Scope,
  grant: Json,
  kind: 'credits_expired' | 'credits_voided',
  at: number,
  origin: Origin,
): void {
  const left = remaining(ctx, scope, grant.id)
  if (left <= 0) return
  const currency = (grant.amount as { monetary: { currency: string } }).monetary.currency
  recordTxn(
    ctx,
    scope,
    grant,
    origin,
    { type: 'debit', debit: { amount: monetary(currency, left), credits_applied: null, type: kind } },
    at,
  )
}

/** The customer's credit balance in each currency: available (usable now) and ledger (every grant not voided). */
function summary(ctx: BillingContext, scope: Scope, customer: string, t: number, only: (g: Json) => boolean) {
  const byCurrency = new Map<string, { available: number; ledger: number }>()
  for (const g of grantsOf(ctx).list(scope)) {
    if (g.customer !== customer || !only(g)) continue
    const currency = (g.amount as { monetary: { currency: string } }).monetary.currency
    const row = byCurrency.get(currency) ?? { available: 0, ledger: 0 }
    const left = remaining(ctx, scope, g.id)
    if (usable(g, t)) row.available += left
    row.ledger += left
    byCurrency.set(currency, row)
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, row]) => ({
      available_balance: monetary(currency, row.available),
      ledger_balance: monetary(currency, row.ledger),
    }))
}
