import type { Mode, Scope } from '../mode.js'
import { type BalanceTransaction, postedPending } from './balance-transaction.js'

/**
 * The ledger accounts of one scope and currency. `balance.*` is the account holder's money; the
 * others are the counterparties that make every entry balance.
 *
 * @example
 * const fees: LedgerAccount = 'provider.fees'
 */
export type LedgerAccount = 'balance.pending' | 'balance.available' | 'external.customer_funds' | 'provider.fees'

/**
 * One line of a journal entry: a signed amount on a named ledger account. Lines of an entry sum to zero.
 *
 * @example
 * const line: JournalLine = { ledgerAccount: 'balance.pending', amount: 1912 }
 */
export interface JournalLine {
  readonly ledgerAccount: LedgerAccount
  readonly amount: number
}

/**
 * A balanced journal entry (double entry): its lines sum to zero.
 *
 * @example
 * ledger.journal(scope).every((e) => e.lines.reduce((s, l) => s + l.amount, 0) === 0) // true
 */
export interface JournalEntry {
  /** Its place in the scope's journal, from 1. */
  readonly id: number
  readonly account: string
  readonly mode: Mode
  readonly currency: string
  /** Virtual epoch ms (whole seconds: the transaction's `created` or `available_on`). */
  readonly at: number
  /** The balance transaction it belongs to. */
  readonly transaction: string
  readonly memo: string
  readonly lines: readonly JournalLine[]
}

type Draft = Omit<JournalEntry, 'id'>

/**
 * The journal of a scope, derived from its balance transactions (oldest first): each posting is
 * one entry (money in from, or out to, the counterparty; the fee to the provider), and each
 * transaction that waited in the pending balance and is now available adds a second entry at
 * `available_on` moving its net from pending to available. Entries are in time order, a posting
 * before an availability of the same second.
 *
 * @example
 * journalOf(scope, oldestFirst)[0].lines // [{ ledgerAccount: 'external.customer_funds', amount: -2000 }, ...]
 */
export function journalOf(scope: Scope, transactions: readonly BalanceTransaction[]): JournalEntry[] {
  const postings: Draft[] = []
  const availabilities: Draft[] = []
  for (const t of transactions) {
    const entry = (at: number, memo: string, lines: JournalLine[]): Draft => ({
      account: scope.account,
      mode: scope.mode,
      currency: t.currency,
      at: at * 1000,
      transaction: t.id,
      memo,
      lines,
    })
    const pending = postedPending(t)
    postings.push(
      entry(t.created, t.type, [
        line('external.customer_funds', -t.amount),
        line(pending ? 'balance.pending' : 'balance.available', t.net),
        ...(t.fee === 0 ? [] : [line('provider.fees', t.fee)]),
      ]),
    )
    if (pending && t.status === 'available') {
      availabilities.push(entry(t.available_on, 'available', [line('balance.pending', -t.net), line('balance.available', t.net)]))
    }
  }
  // Postings are in creation order; availabilities are put in time order (their delays may differ),
  // and a merge keeps the journal in time order.
  availabilities.sort((a, b) => a.at - b.at)
  const out: JournalEntry[] = []
  let j = 0
  const take = (d: Draft) => out.push({ id: out.length + 1, ...d })
  for (const p of postings) {
    for (let a = availabilities[j]; a !== undefined && a.at < p.at; a = availabilities[++j]) take(a)
    take(p)
  }
  for (; j < availabilities.length; j++) take(availabilities[j] as Draft)
  return out
}

function line(ledgerAccount: LedgerAccount, amount: number): JournalLine {
  return { ledgerAccount, amount }
}
