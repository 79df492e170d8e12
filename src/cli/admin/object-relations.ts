import type { Simulator } from '#simulator/index.js'

type Obj = Record<string, unknown> & { readonly id: string }
type Scope = { readonly account: string; readonly mode: 'test' | 'live' }

/**
 * The kinds an account's view counts.
 *
 * @example
 * VIEWED_KINDS.includes('invoice') // true
 */
export const VIEWED_KINDS = [
  'customer',
  'payment_method',
  'subscription',
  'invoice',
  'payment_intent',
  'charge',
  'refund',
  'dispute',
  'balance_transaction',
  'test_helpers.test_clock',
  'webhook_endpoint',
] as const

/** Objects of a kind in a scope; a kind the service does not store is none. */
function all(sim: Simulator, kind: string, scope: Scope): Obj[] {
  try {
    return sim.admin.objects(kind, scope) as Obj[]
  } catch {
    return []
  }
}

const within = (ids: ReadonlySet<string>, value: unknown): boolean => typeof value === 'string' && ids.has(value)
const idsOf = (objects: readonly Obj[]): Set<string> => new Set(objects.map((o) => o.id))

/**
 * A customer's objects, each kind linked through the one before: its payment methods,
 * subscriptions, invoices, payments and charges (by customer), the refunds and disputes of its
 * charges, and the balance transactions those made.
 *
 * @example
 * customerRelations(sim, scope, 'cus_1').invoice?.length
 */
export function customerRelations(sim: Simulator, scope: Scope, id: string): Record<string, Obj[]> {
  const mine = (kind: string) => all(sim, kind, scope).filter((o) => o.customer === id)
  const charges = mine('charge')
  const chargeIds = idsOf(charges)
  const refunds = all(sim, 'refund', scope).filter((r) => r.customer === id || within(chargeIds, r.charge))
  const disputes = all(sim, 'dispute', scope).filter((d) => within(chargeIds, d.charge))
  const sources = new Set([...chargeIds, ...idsOf(refunds), ...idsOf(disputes)])
  const named = new Set([...charges, ...refunds].map((o) => o.balance_transaction).filter((t) => typeof t === 'string'))
  const transactions = all(sim, 'balance_transaction', scope).filter((t) => within(sources, t.source) || named.has(t.id))
  return {
    payment_method: mine('payment_method'),
    subscription: mine('subscription'),
    invoice: mine('invoice'),
    payment_intent: mine('payment_intent'),
    charge: charges,
    refund: refunds,
    dispute: disputes,
    balance_transaction: transactions,
  }
}

/**
 * A test clock's objects: the customers on it, and their subscriptions and invoices.
 *
 * @example
 * clockRelations(sim, scope, 'clock_1').customer?.length
 */
export function clockRelations(sim: Simulator, scope: Scope, id: string): Record<string, Obj[]> {
  const customers = all(sim, 'customer', scope).filter((c) => c.test_clock === id)
  const ids = idsOf(customers)
  return {
    customer: customers,
    subscription: all(sim, 'subscription', scope).filter((s) => s.test_clock === id || within(ids, s.customer)),
    invoice: all(sim, 'invoice', scope).filter((i) => within(ids, i.customer)),
  }
}

/**
 * An account's view: how many objects of each kind it holds in each mode, its customers (the
 * newest 50) and its balance.
 *
 * @example
 * accountView(sim, 'acct_1')?.modes.test?.counts.customer
 */
export function accountView(sim: Simulator, id: string) {
  const account = sim.admin.account(id)
  if (account === undefined) return undefined
  const modes: Record<string, unknown> = {}
  for (const mode of ['test', 'live'] as const) {
    if (!account.modes.has(mode)) continue
    const scope = { account: id, mode }
    const counts = Object.fromEntries(VIEWED_KINDS.map((k) => [k, all(sim, k, scope).length]))
    const customers = all(sim, 'customer', scope).slice(-50).reverse()
    modes[mode] = { counts, customers, balance: sim.admin.balance(id, mode) }
  }
  return {
    id,
    object: 'account',
    platform: account.platform ?? null,
    organisation: account.organisation ?? null,
    api_version: account.apiVersion,
    connected: sim.admin
      .accounts()
      .filter((a) => a.platform === id)
      .map((a) => a.id),
    modes,
  }
}
