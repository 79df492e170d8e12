import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { isMetered } from './lines.js'

/** The priority of a grant without one (the provider's default). */
const DEFAULT_PRIORITY = 50

/**
 * A monetary amount as credit objects carry it.
 *
 * @example
 * monetary('usd', 500) // { monetary: { currency: 'usd', value: 500 }, type: 'monetary' }
 */
export const monetary = (currency: string, value: number) => ({ monetary: { currency, value }, type: 'monetary' })

const amountValue = (amount: unknown) => Number((amount as { monetary?: { value?: unknown } } | null)?.monetary?.value ?? 0)

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

export function createCredits(ctx: BillingContext) {
  const { engine } = ctx
  const grants = () => engine.resource('billing.credit_grant')
  const txns = () => engine.resource('billing.credit_balance_transaction')

  /** What is left of a grant: its credits less its debits. */
  function remaining(scope: Scope, grantId: string): number {
    let left = 0
    for (const t of txns().list(scope)) {
      if (t.credit_grant !== grantId) continue
      if (t.type === 'credit') left += amountValue((t.credit as { amount: unknown }).amount)
      else left -= amountValue((t.debit as { amount: unknown }).amount)
    }
    return left
  }

  /** Whether a grant can be used at `t` (unix seconds): in effect, not expired, not voided. */
  function usable(grant: Json, t: number): boolean {
    if (grant.voided_at !== null && grant.voided_at !== undefined) return false
    if (typeof grant.effective_at === 'number' && grant.effective_at > t) return false
    return !(typeof grant.expires_at === 'number' && grant.expires_at <= t)
  }

  /** Whether a grant applies to a price: every metered price, or the prices it names. */
  function appliesTo(grant: Json, price: Json): boolean {
    const scope = (grant.applicability_config as { scope?: { price_type?: unknown; prices?: { id: unknown }[] } }).scope
    if (Array.isArray(scope?.prices) && scope.prices.length > 0) return scope.prices.some((p) => p.id === price.id)
    return scope?.price_type === 'metered' && isMetered(price)
  }

  /** A balance transaction of a grant (`billing.credit_balance_transaction.created`). */
  function record(scope: Scope, grant: Json, origin: Origin, fields: Record<string, unknown>, at: number): Json {
    return txns().create(scope, {}, origin, {
      credit: null,
      debit: null,
      credit_grant: grant.id,
      effective_at: at,
      test_clock: grant.test_clock ?? null,
      ...fields,
    })
  }

  /** The grant's credit (`credits_granted`), made with the grant. */
  function granted(scope: Scope, grant: Json, origin: Origin): Json {
    const amount = (grant.amount as { monetary: { currency: string; value: number } }).monetary
    const at = typeof grant.effective_at === 'number' ? grant.effective_at : Number(grant.created)
    return record(
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
  function drain(scope: Scope, grant: Json, kind: 'credits_expired' | 'credits_voided', at: number, origin: Origin): void {
    const left = remaining(scope, grant.id)
    if (left <= 0) return
    const currency = (grant.amount as { monetary: { currency: string } }).monetary.currency
    record(
      scope,
      grant,
      origin,
      { type: 'debit', debit: { amount: monetary(currency, left), credits_applied: null, type: kind } },
      at,
    )
  }

  /** The grants of a customer usable now in `currency`, in the order they are used: priority, then soonest to expire, then oldest. */
  function usableGrants(scope: Scope, customer: string, currency: string, t: number): Json[] {
    return grants()
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
   */
  function apply(scope: Scope, invoice: Json, now: number, origin: Origin): Record<string, unknown> {
    const t = sec(now)
    const currency = String(invoice.currency)
    const candidates = usableGrants(scope, String(invoice.customer), currency, t)
    if (candidates.length === 0) return {}
    const left = new Map(candidates.map((g) => [g.id, remaining(scope, g.id)]))
    const list = invoice.lines as { data: Json[] }
    const totals: { amount: number; credit_balance_transaction: string; type: string }[] = []
    const data = list.data.map((line) => {
      const priceId = (line.pricing as { price_details?: { price?: unknown } } | null)?.price_details?.price
      const price = typeof priceId === 'string' ? ctx.r.price().get(scope, priceId) : undefined
      let open = Number(line.amount)
      if (price === undefined || open <= 0) return line
      const credits: { amount: number; credit_balance_transaction: string; type: string }[] = []
      for (const grant of candidates) {
        if (open <= 0) break
        const have = left.get(grant.id) ?? 0
        if (have <= 0 || !appliesTo(grant, price)) continue
        const used = Math.min(have, open)
        const txn = record(
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
    })
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

  /** A voided invoice gives back the credits applied to it (`credits_application_invoice_voided`). */
  function restore(scope: Scope, invoice: Json, now: number, origin: Origin): void {
    for (const line of (invoice.lines as { data: Json[] }).data) {
      for (const c of (line.pretax_credit_amounts as { amount: number; credit_balance_transaction?: string }[]) ?? []) {
        if (typeof c.credit_balance_transaction !== 'string') continue
        const debit = txns().get(scope, c.credit_balance_transaction)
        const grant = debit === undefined ? undefined : grants().get(scope, String(debit.credit_grant))
        if (grant === undefined) continue
        record(
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

  /** The customer's credit balance in each currency: available (usable now) and ledger (every grant not voided). */
  function summary(scope: Scope, customer: string, t: number, only: (g: Json) => boolean) {
    const byCurrency = new Map<string, { available: number; ledger: number }>()
    for (const g of grants().list(scope)) {
      if (g.customer !== customer || !only(g)) continue
      const currency = (g.amount as { monetary: { currency: string } }).monetary.currency
      const row = byCurrency.get(currency) ?? { available: 0, ledger: 0 }
      const left = remaining(scope, g.id)
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

  return { granted, drain, apply, restore, remaining, summary, appliesTo }
}
