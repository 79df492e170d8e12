import type { TaskKind } from '#kernel/scheduler.js'
import { DAY } from '#kernel/time.js'
import type { Json } from '../engine/list.js'
import type { Resource } from '../engine/resource.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import { type BalanceTransaction, feeDetailsOf } from './balance-transaction.js'
import { type JournalEntry, journalOf } from './journal.js'
import { addToIndex, PostingIndex, postingKey, storedOldestFirst } from './posting-index.js'

/** Days a charge's funds stay pending before they become available (the provider's standard 2-day schedule). */
export const AVAILABLE_AFTER = 2 * DAY

/** A posting request: one money movement of an account in one mode and currency. */
export interface PostInput {
  readonly account: string
  readonly mode: Scope['mode']
  readonly currency: string
  /** Signed gross amount in minor units: positive for money in (a charge), negative for money out (a refund). */
  readonly amount: number
  /** Fee kept by the provider, in minor units; negative only when a fee is given back (a dispute won). Default 0. */
  readonly fee?: number
  /** What the fee is for in `fee_details` (default `Processing fees`). */
  readonly feeDescription?: string
  readonly type: string
  readonly reportingCategory?: string
  readonly source: string | null
  readonly description?: string | null
  /**
   * Virtual ms until the net amount becomes available; default {@link AVAILABLE_AFTER}; 0 = at once.
   * Otherwise at least a second, so that `available_on` (unix seconds) comes after `created`.
   */
  readonly availableAfter?: number
}

/** Available and pending amounts of one currency. */
export interface CurrencyBalance {
  readonly currency: string
  readonly available: number
  readonly pending: number
}

/**
 * The double-entry ledger. Every money movement of an account (per mode and currency) is one
 * balance transaction, stored once as the API shows it in the engine's `balance_transaction`
 * store; a charge's net amount moves from pending to available at `available_on` (its `status`
 * changes then). The journal (a balanced entry per posting, a second one per availability) and
 * the balances are derived from the stored transactions, never stored apart, so they cannot drift.
 * A posting is keyed by its source, type and reporting category: posting the same movement twice
 * returns the first transaction and moves no money, which backs the HTTP idempotency guarantee
 * with a domain one.
 *
 * @example
 * const txn = ledger.post({ account, mode: 'test', currency: 'usd', amount: 2000, fee: 88, type: 'charge', source: 'ch_1' })
 * ledger.balance({ account, mode: 'test' }) // [{ currency: 'usd', available: 0, pending: 1912 }]
 * ledger.transactionCount({ account, mode: 'test' }, now - 30 * DAY) // 1
 */
export interface Ledger {
  post(input: PostInput): BalanceTransaction
  /** A scope's balance transactions, newest first. */
  transactions(scope: Scope): readonly BalanceTransaction[]
  get(scope: Scope, id: string): BalanceTransaction | undefined
  /** Available and pending per currency, derived from the balance transactions; currencies sorted. */
  balance(scope: Scope): CurrencyBalance[]
  /** The same balance summed from the journal lines (a cross-check; equal to `balance` by construction). */
  journalBalance(scope: Scope): CurrencyBalance[]
  /** Every journal entry of a scope, oldest first (derived from its transactions). */
  journal(scope: Scope): readonly JournalEntry[]
  /**
   * Number of balance transactions of one account and mode whose `created` second starts at or
   * after `since` (virtual epoch ms, inclusive). Read allocations are computed from it: 500 GET requests per transaction
   * over a rolling 30-day window, e.g. `transactionCount(scope, now - 30 * DAY)`. A platform's
   * allocation for reads on behalf of its connected accounts sums this over those accounts (see
   * {@link Ledger.connectedTransactionCount}). O(log n).
   *
   * @example
   * service.ledger.transactionCount({ account: 'acct_1', mode: 'live' }, kernel.clock.now - 30 * DAY)
   */
  transactionCount(scope: Scope, since: number): number
  /**
   * Sum of {@link Ledger.transactionCount} over the connected accounts `platform` owns, in `mode`.
   *
   * @example
   * service.ledger.connectedTransactionCount(platformId, 'live', now - 30 * DAY)
   */
  connectedTransactionCount(platform: string, mode: Scope['mode'], since: number): number
}

/**
 * The object the engine stores for the declared `balance_transaction` resource.
 *
 * @example
 * engine.resource(BALANCE_TRANSACTION_OBJECT).get(scope, 'txn_1')
 */
export const BALANCE_TRANSACTION_OBJECT = 'balance_transaction'

/**
 * The ledger over the engine's store of balance transactions (`resource`); `connectedOf` names a
 * platform's connected accounts.
 *
 * @example
 * const ledger = createLedger(kernel, () => engine.resource(BALANCE_TRANSACTION_OBJECT), connectedOf)
 */
export function createLedger(
  kernel: Kernel,
  resource: () => Resource,
  connectedOf: (platform: string) => readonly string[],
): Ledger {
  return new BalanceLedger(kernel, resource, connectedOf)
}

/**
 * The ledger's state and operations. A class: it is made per simulation (every fork), and its
 * methods on the prototype cost nothing per instance; a posting is on every payment's path.
 */
class BalanceLedger implements Ledger {
  private readonly kernel: Kernel
  private readonly resource: () => Resource
  private readonly connectedOf: (platform: string) => readonly string[]
  private readonly index: PostingIndex
  private readonly available: TaskKind<{ key: string; id: string }>

  constructor(kernel: Kernel, resource: () => Resource, connectedOf: (platform: string) => readonly string[]) {
    this.kernel = kernel
    this.resource = resource
    this.connectedOf = connectedOf
    const index = new PostingIndex(resource)
    this.index = index
    this.available = kernel.scheduler.define<{ key: string; id: string }>('ledger.available', ({ key, id }) => {
      const cut = key.lastIndexOf('|')
      const scope: Scope = { account: key.slice(0, cut), mode: key.slice(cut + 1) as Scope['mode'] }
      resource().put(scope, id, { status: 'available' })
      kernel.trace.append('ledger.available', { id })
    })
    kernel.state.register('ledger', {
      // The transactions are in the engine's part; the index has nothing of its own to save and is
      // rebuilt from them, a scope at a time, on first use after a load.
      save: () => null,
      load() {
        index.clear()
      },
    })
  }

  post(input: PostInput): BalanceTransaction {
    const scope: Scope = { account: input.account, mode: input.mode }
    const ix = this.index.of(scope)
    const category = input.reportingCategory ?? input.type
    const key = postingKey(input.type, category, input.source)
    const existing = key === undefined ? undefined : ix.byPosting.get(key)
    if (existing !== undefined) return this.resource().get(scope, existing) as unknown as BalanceTransaction
    const kernel = this.kernel
    const after = input.availableAfter ?? AVAILABLE_AFTER
    const now = kernel.clock.now
    const t = newTransaction(kernel, input, category, now, after)
    this.resource().insert(scope, t as unknown as Json)
    addToIndex(ix, t)
    kernel.trace.append('ledger.posted', {
      id: t.id,
      account: scope.account,
      mode: scope.mode,
      currency: t.currency,
      amount: t.amount,
      fee: t.fee,
      type: t.type,
      source: t.source,
    })
    if (t.status === 'pending') this.available.at(now + after, { key: scopeKey(scope), id: t.id })
    return t
  }

  transactions(scope: Scope): readonly BalanceTransaction[] {
    return this.resource().list(scope) as unknown as BalanceTransaction[]
  }

  get(scope: Scope, id: string): BalanceTransaction | undefined {
    return this.resource().get(scope, id) as unknown as BalanceTransaction | undefined
  }

  balance(scope: Scope): CurrencyBalance[] {
    return sumByCurrency(
      storedOldestFirst(this.resource(), scope).map((t) => ({
        currency: t.currency,
        available: t.status === 'available' ? t.net : 0,
        pending: t.status === 'pending' ? t.net : 0,
      })),
    )
  }

  journalBalance(scope: Scope): CurrencyBalance[] {
    return sumByCurrency(
      this.journal(scope).flatMap((e) =>
        e.lines.map((l) => ({
          currency: e.currency,
          available: l.ledgerAccount === 'balance.available' ? l.amount : 0,
          pending: l.ledgerAccount === 'balance.pending' ? l.amount : 0,
        })),
      ),
    )
  }

  journal(scope: Scope): readonly JournalEntry[] {
    return journalOf(scope, storedOldestFirst(this.resource(), scope))
  }

  transactionCount(scope: Scope, since: number): number {
    return this.index.countSince(scope, since)
  }

  connectedTransactionCount(platform: string, mode: Scope['mode'], since: number): number {
    let n = 0
    for (const id of this.connectedOf(platform)) n += this.index.countSince({ account: id, mode }, since)
    return n
  }
}

/**
 * A new balance transaction of a posting (checked first; then its id is drawn), not yet stored.
 * `now` is the posting's instant and `after` its wait until available, ms.
 */
function newTransaction(kernel: Kernel, input: PostInput, category: string, now: number, after: number): BalanceTransaction {
  const fee = input.fee ?? 0
  if (!Number.isSafeInteger(input.amount) || !Number.isSafeInteger(fee) || (fee < 0 && input.amount <= 0)) {
    throw new Error(`ledger: amounts must be safe integers (amount ${input.amount}, fee ${fee})`)
  }
  if (after > 0 && after < 1000) throw new Error(`ledger: availableAfter must be 0 or at least a second (${after})`)
  return {
    id: kernel.ids.next('txn', 24),
    object: 'balance_transaction',
    amount: input.amount,
    available_on: Math.floor((now + after) / 1000),
    balance_type: 'payments',
    created: Math.floor(now / 1000),
    currency: input.currency,
    description: input.description ?? null,
    exchange_rate: null,
    fee,
    fee_details: feeDetailsOf(fee, input.currency, input.feeDescription),
    net: input.amount - fee,
    reporting_category: category,
    source: input.source,
    status: after <= 0 ? 'available' : 'pending',
    type: input.type,
  }
}

/** Available and pending summed per currency, currencies sorted. */
function sumByCurrency(entries: Iterable<{ currency: string; available: number; pending: number }>): CurrencyBalance[] {
  const m = new Map<string, { available: number; pending: number }>()
  for (const e of entries) {
    const c = m.get(e.currency) ?? { available: 0, pending: 0 }
    c.available += e.available
    c.pending += e.pending
    m.set(e.currency, c)
  }
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, v]) => ({ currency, ...v }))
}
