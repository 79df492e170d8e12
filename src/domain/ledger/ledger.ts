import { fromPlain, toPlain } from '#kernel/plain.js'
import { DAY } from '#kernel/time.js'
import type { Kernel } from '../kernel.js'
import { type Scope, scopeKey } from '../mode.js'
import type { BalanceTransaction, JournalEntry, JournalLine, LedgerAccount } from './balance-transaction.js'

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
  /** Virtual ms until the net amount becomes available; default {@link AVAILABLE_AFTER}; 0 = at once. */
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
 * balance transaction backed by a balanced journal entry; a charge's net amount moves from
 * `balance.pending` to `balance.available` at `available_on` by a second balanced entry. Balances
 * are derived from the transactions, never stored apart, so they cannot drift. A posting is keyed by
 * `(source, type)`: posting the same source twice returns the first transaction and moves no money,
 * which backs the HTTP idempotency guarantee with a domain one.
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
  /** Every journal entry of a scope, oldest first. */
  journal(scope: Scope): readonly JournalEntry[]
  /**
   * Number of balance transactions of one account and mode created at or after `since` (virtual
   * epoch ms, inclusive). Read allocations are computed from it: 500 GET requests per transaction
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

interface ScopeBook {
  /** Oldest first; `created` is non-decreasing, so counts since a time are a binary search. */
  readonly transactions: BalanceTransaction[]
  readonly byId: Map<string, BalanceTransaction>
  readonly bySource: Map<string, BalanceTransaction>
  readonly journal: JournalEntry[]
}

export function createLedger(kernel: Kernel, connectedOf: (platform: string) => readonly string[]): Ledger {
  const books = new Map<string, ScopeBook>()
  let entrySeq = 0

  const available = kernel.scheduler.define<{ key: string; id: string }>('ledger.available', ({ key, id }) => {
    const b = books.get(key) as ScopeBook
    const t = b.byId.get(id) as BalanceTransaction
    t.status = 'available'
    record(b, t, 'available', [line('balance.pending', -t.net), line('balance.available', t.net)])
    kernel.trace.append('ledger.available', { id: t.id })
  })

  kernel.state.register('ledger', {
    save: () =>
      toPlain({
        entrySeq,
        books: [...books].map(([key, b]) => ({
          key,
          transactions: b.transactions,
          bySource: [...b.bySource].map(([k, t]) => [k, t.id]),
          journal: b.journal,
        })),
      }),
    load(data) {
      const saved = fromPlain<{
        entrySeq: number
        books: { key: string; transactions: BalanceTransaction[]; bySource: [string, string][]; journal: JournalEntry[] }[]
      }>(data)
      entrySeq = saved.entrySeq
      books.clear()
      for (const s of saved.books) {
        const byId = new Map(s.transactions.map((t) => [t.id, t]))
        const bySource = new Map(s.bySource.map(([k, id]) => [k, byId.get(id) as BalanceTransaction]))
        books.set(s.key, { transactions: s.transactions, byId, bySource, journal: s.journal })
      }
    },
  })

  function book(scope: Scope): ScopeBook {
    const k = scopeKey(scope)
    let b = books.get(k)
    if (b === undefined) {
      b = { transactions: [], byId: new Map(), bySource: new Map(), journal: [] }
      books.set(k, b)
    }
    return b
  }

  function record(b: ScopeBook, t: BalanceTransaction, memo: string, lines: JournalLine[]): void {
    const sum = lines.reduce((s, l) => s + l.amount, 0)
    if (sum !== 0) throw new Error(`ledger: unbalanced journal entry for ${t.id} (${memo}): ${sum}`)
    b.journal.push({
      id: ++entrySeq,
      account: t.account,
      mode: t.mode,
      currency: t.currency,
      at: kernel.clock.now,
      transaction: t.id,
      memo,
      lines,
    })
  }

  function line(ledgerAccount: LedgerAccount, amount: number): JournalLine {
    return { ledgerAccount, amount }
  }

  function countSince(b: ScopeBook | undefined, since: number): number {
    if (b === undefined) return 0
    const txns = b.transactions
    let lo = 0
    let hi = txns.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((txns[mid] as BalanceTransaction).created < since) lo = mid + 1
      else hi = mid
    }
    return txns.length - lo
  }

  function sumBy(entries: Iterable<{ currency: string; available: number; pending: number }>): CurrencyBalance[] {
    const m = new Map<string, { available: number; pending: number }>()
    for (const e of entries) {
      const c = m.get(e.currency) ?? { available: 0, pending: 0 }
      c.available += e.available
      c.pending += e.pending
      m.set(e.currency, c)
    }
    return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, v]) => ({ currency, ...v }))
  }

  return {
    post(input) {
      const b = book(input)
      // Two movements of one type from one source differ by reporting category (a dispute's
      // withdrawal and reinstatement); the key keeps its old form where they agree.
      const category =
        input.reportingCategory === undefined || input.reportingCategory === input.type ? '' : `${input.reportingCategory}|`
      const dedupe = input.source === null ? undefined : `${input.type}|${category}${input.source}`
      const existing = dedupe === undefined ? undefined : b.bySource.get(dedupe)
      if (existing !== undefined) return existing
      const fee = input.fee ?? 0
      if (!Number.isSafeInteger(input.amount) || !Number.isSafeInteger(fee) || (fee < 0 && input.amount <= 0)) {
        throw new Error(`ledger: amounts must be safe integers (amount ${input.amount}, fee ${fee})`)
      }
      const now = kernel.clock.now
      const after = input.availableAfter ?? AVAILABLE_AFTER
      const net = input.amount - fee
      const t: BalanceTransaction = {
        id: kernel.ids.next('txn', 24),
        account: input.account,
        mode: input.mode,
        currency: input.currency,
        amount: input.amount,
        fee,
        net,
        type: input.type,
        reportingCategory: input.reportingCategory ?? input.type,
        source: input.source,
        description: input.description ?? null,
        created: now,
        availableOn: now + after,
        status: after <= 0 ? 'available' : 'pending',
        ...(input.feeDescription === undefined ? {} : { feeDescription: input.feeDescription }),
      }
      const target: LedgerAccount = t.status === 'available' ? 'balance.available' : 'balance.pending'
      record(b, t, input.type, [
        line('external.customer_funds', -input.amount),
        line(target, net),
        ...(fee === 0 ? [] : [line('provider.fees', fee)]),
      ])
      b.transactions.push(t)
      b.byId.set(t.id, t)
      if (dedupe !== undefined) b.bySource.set(dedupe, t)
      kernel.trace.append('ledger.posted', {
        id: t.id,
        account: t.account,
        mode: t.mode,
        currency: t.currency,
        amount: t.amount,
        fee,
        type: t.type,
        source: t.source,
      })
      if (t.status === 'pending') {
        available.at(t.availableOn, { key: scopeKey(input), id: t.id })
      }
      return t
    },
    transactions: (scope) => [...(books.get(scopeKey(scope))?.transactions ?? [])].reverse(),
    get: (scope, id) => books.get(scopeKey(scope))?.byId.get(id),
    balance(scope) {
      const txns = books.get(scopeKey(scope))?.transactions ?? []
      return sumBy(
        txns.map((t) => ({
          currency: t.currency,
          available: t.status === 'available' ? t.net : 0,
          pending: t.status === 'pending' ? t.net : 0,
        })),
      )
    },
    journalBalance(scope) {
      const entries = books.get(scopeKey(scope))?.journal ?? []
      return sumBy(
        entries.flatMap((e) =>
          e.lines.map((l) => ({
            currency: e.currency,
            available: l.ledgerAccount === 'balance.available' ? l.amount : 0,
            pending: l.ledgerAccount === 'balance.pending' ? l.amount : 0,
          })),
        ),
      )
    },
    journal: (scope) => books.get(scopeKey(scope))?.journal ?? [],
    transactionCount: (scope, since) => countSince(books.get(scopeKey(scope)), since),
    connectedTransactionCount(platform, mode, since) {
      let n = 0
      for (const id of connectedOf(platform)) n += countSince(books.get(scopeKey({ account: id, mode })), since)
      return n
    },
  }
}
