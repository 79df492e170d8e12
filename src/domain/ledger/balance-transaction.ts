import type { Mode } from '../mode.js'

/** Where a balance transaction's money sits: `pending` until `available_on`, then `available`. */
export type BalanceStatus = 'pending' | 'available'

/**
 * A balance transaction, the provider's `txn_` object: one movement of an account's balance in one
 * currency and mode, backed by a balanced journal entry. `net = amount - fee`.
 */
export interface BalanceTransaction {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly currency: string
  /** Gross amount in the currency's minor unit; negative for money leaving the balance. */
  readonly amount: number
  readonly fee: number
  readonly net: number
  /** `charge`, `refund`, `payment`, `adjustment`, ... as the provider names them. */
  readonly type: string
  readonly reportingCategory: string
  /** The object that caused it (`ch_…`, `osp_…`). */
  readonly source: string | null
  readonly description: string | null
  /** Virtual epoch ms. */
  readonly created: number
  /** Virtual epoch ms at which the net amount moves from pending to available. */
  readonly availableOn: number
  status: BalanceStatus
  /** What the fee is for, where it is not processing (`Dispute fee`). */
  readonly feeDescription?: string
}

/** One line of a journal entry: a signed amount on a named ledger account. Lines of an entry sum to zero. */
export interface JournalLine {
  readonly ledgerAccount: LedgerAccount
  readonly amount: number
}

/**
 * The ledger accounts of one scope and currency. `balance.*` is the account holder's money; the
 * others are the counterparties that make every entry balance.
 */
export type LedgerAccount = 'balance.pending' | 'balance.available' | 'external.customer_funds' | 'provider.fees'

/** A balanced journal entry (double entry): its lines sum to zero. */
export interface JournalEntry {
  readonly id: number
  readonly account: string
  readonly mode: Mode
  readonly currency: string
  readonly at: number
  /** The balance transaction it belongs to. */
  readonly transaction: string
  readonly memo: string
  readonly lines: readonly JournalLine[]
}

/**
 * The v1 JSON of a balance transaction.
 *
 * @example
 * balanceTransactionJson(txn) // { id: 'txn_…', object: 'balance_transaction', amount: 2000, fee: 88, net: 1912, ... }
 */
export function balanceTransactionJson(t: BalanceTransaction): Record<string, unknown> {
  return {
    id: t.id,
    object: 'balance_transaction',
    amount: t.amount,
    available_on: Math.floor(t.availableOn / 1000),
    balance_type: 'payments',
    created: Math.floor(t.created / 1000),
    currency: t.currency,
    description: t.description,
    exchange_rate: null,
    fee: t.fee,
    fee_details:
      t.fee === 0
        ? []
        : [
            {
              amount: t.fee,
              application: null,
              currency: t.currency,
              description: t.feeDescription ?? 'Processing fees',
              type: 'stripe_fee',
            },
          ],
    net: t.net,
    reporting_category: t.reportingCategory,
    source: t.source,
    status: t.status,
    type: t.type,
  }
}
