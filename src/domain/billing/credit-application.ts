import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { appliesTo, grantsOf, monetary, recordTxn, remaining, txnsOf, usable } from './credit-grant-ledger.js'

/** The priority of a grant without one (the provider's default). */
const DEFAULT_PRIORITY = 50

/** One application of a grant to a line, as a line's `pretax_credit_amounts` lists it. */
interface CreditAmount {
  amount: number
  credit_balance_transaction: string
  type: string
}

/** What applying grants to one invoice shares: the grants in order of use and what is left on each. */
interface Application {
  readonly scope: Scope
  readonly invoice: Json
  readonly currency: string
  readonly t: number
  readonly origin: Origin
  readonly candidates: readonly Json[]
  readonly left: Map<string, number>
}

/** The grants of a customer usable now in `currency`, in the order they are used: priority, then soonest to expire, then oldest. */
function usableGrants(ctx: BillingContext, scope: Scope, customer: string, currency: string, t: number): Json[] {
  return grantsOf(ctx)
    .list(scope)
    .filter(
      (g) =>
        g.customer === customer &&
        (g.amount as { monetary: { currency: string } }).monetary.currency === currency &&
        usable(g, t),
    )
    .sort(
      (a, b) =>
        Number(a.priority ?? DEFAULT_PRIORITY) - Number(b.priority ?? DEFAULT_PRIORITY) ||
        Number(a.expires_at ?? Number.MAX_SAFE_INTEGER) - Number(b.expires_at ?? Number.MAX_SAFE_INTEGER) ||
        Number(a.created) - Number(b.created) ||
        (a.id < b.id ? -1 : 1),
    )
}

/**
 * Applies the customer's usable grants to the metered lines of an invoice being finalized: each
 * application a `credits_applied` debit and a line's `pretax_credit_amounts`; the invoice's
 * `total_pretax_credit_amounts` and amounts lowered by the credits. Answers the fields to set
 * (none when no credit applies).
 *
 * @example
 * const fields = applyCredits(ctx, scope, invoice, now, origin)
 * if (Object.keys(fields).length > 0) r.invoice().put(scope, invoice.id, fields)
 */
export function applyCredits(
  ctx: BillingContext,
  scope: Scope,
  invoice: Json,
  now: number,
  origin: Origin,
): Record<string, unknown> {
  const t = sec(now)
  const currency = String(invoice.currency)
  const candidates = usableGrants(ctx, scope, String(invoice.customer), currency, t)
  if (candidates.length === 0) return {}
  const left = new Map(candidates.map((g) => [g.id, remaining(ctx, scope, g.id)]))
  const run: Application = { scope, invoice, currency, t, origin, candidates, left }
  const list = invoice.lines as { data: Json[] }
  const totals: CreditAmount[] = []
  const data = list.data.map((line) => creditLine(ctx, run, line, totals))
  const applied = totals.reduce((n, c) => n + c.amount, 0)
  if (applied === 0) return {}
  const total = Number(invoice.total) - applied
  return {
    lines: { ...list, data },
    total_pretax_credit_amounts: totals,
    total,
    total_excluding_tax: Number(invoice.total_excluding_tax ?? invoice.total) - applied,
    amount_due: Math.max(0, total),
    amount_remaining: Math.max(0, total),
  }
}

/** One line with the grants that apply to it used on it, in order, until it is covered; adds them to `totals`. */
function creditLine(ctx: BillingContext, run: Application, line: Json, totals: CreditAmount[]): Json {
  const { scope, invoice, currency, t, origin, left } = run
  const priceId = (line.pricing as { price_details?: { price?: unknown } } | null)?.price_details?.price
  const price = typeof priceId === 'string' ? ctx.r.price().get(scope, priceId) : undefined
  let open = Number(line.amount)
  if (price === undefined || open <= 0) return line
  const credits: CreditAmount[] = []
  for (const grant of run.candidates) {
    if (open <= 0) break
    const have = left.get(grant.id) ?? 0
    if (have <= 0 || !appliesTo(grant, price)) continue
    const used = Math.min(have, open)
    const txn = recordTxn(
      ctx,
      scope,
      grant,
      origin,
      {
        type: 'debit',
        debit: {
          amount: monetary(currency, used),
          credits_applied: { invoice: invoice.id, invoice_line_item: line.id },
          type: 'credits_applied',
        },
      },
      t,
    )
    left.set(grant.id, have - used)
    open -= used
    credits.push({ amount: used, credit_balance_transaction: txn.id, type: 'credit_balance_transaction' })
  }
  if (credits.length === 0) return line
  totals.push(...credits)
  return { ...line, pretax_credit_amounts: [...((line.pretax_credit_amounts as unknown[]) ?? []), ...credits] }
}

/**
 * A voided invoice gives back the credits applied to it (`credits_application_invoice_voided`).
 *
 * @example
 * restoreCredits(ctx, scope, invoice, now, origin) // one credit per credit applied to its lines
 */
export function restoreCredits(ctx: BillingContext, scope: Scope, invoice: Json, now: number, origin: Origin): void {
  for (const line of (invoice.lines as { data: Json[] }).data) {
    for (const c of (line.pretax_credit_amounts as { amount: number; credit_balance_transaction?: string }[]) ?? []) {
      if (typeof c.credit_balance_transaction !== 'string') continue
      const debit = txnsOf(ctx).get(scope, c.credit_balance_transaction)
      const grant = debit === undefined ? undefined : grantsOf(ctx).get(scope, String(debit.credit_grant))
      if (grant === undefined) continue
      recordTxn(
        ctx,
        scope,
        grant,
        origin,
        {
          type: 'credit',
          credit: {
            amount: monetary(String(invoice.currency), c.amount),
            credits_application_invoice_voided: { invoice: invoice.id, invoice_line_item: line.id },
            type: 'credits_application_invoice_voided',
          },
        },
        sec(now),
      )
    }
  }
}
