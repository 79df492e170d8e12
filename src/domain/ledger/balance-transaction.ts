/**
 * Where a balance transaction's money sits: `pending` until `available_on`, then `available`.
 *
 * @example
 * const status: BalanceStatus = txn.available_on > txn.created ? 'pending' : 'available' // when posted
 */
export type BalanceStatus = 'pending' | 'available'

/**
 * One fee of a balance transaction, as the provider lists it in `fee_details`.
 *
 * @example
 * const fee: FeeDetail = { amount: 88, application: null, currency: 'usd', description: 'Processing fees', type: 'stripe_fee' }
 */
export interface FeeDetail {
  readonly amount: number
  readonly application: string | null
  readonly currency: string
  readonly description: string
  readonly type: 'stripe_fee'
}

/**
 * The `fee_details` of a balance transaction: none without a fee, else the one provider fee. Both
 * the ledger's postings and upgraded version 2 snapshots build them here, so the stored objects
 * agree key for key.
 *
 * @example
 * feeDetailsOf(88, 'usd') // [{ amount: 88, application: null, currency: 'usd', description: 'Processing fees', type: 'stripe_fee' }]
 */
export function feeDetailsOf(fee: number, currency: string, description = 'Processing fees'): FeeDetail[] {
  return fee === 0 ? [] : [{ amount: fee, application: null, currency, description, type: 'stripe_fee' }]
}

/**
 * A balance transaction as the API shows it and as the engine's `balance_transaction` store keeps
 * it: one movement of an account's balance in one currency and mode (the scope it is stored in).
 * `net = amount - fee`; times are unix seconds.
 *
 * @example
 * const txn: BalanceTransaction = sim.service.ledger.transactions({ account, mode: 'test' })[0]
 * txn.status // 'pending' until `available_on`, then 'available'
 */
export interface BalanceTransaction {
  readonly id: string
  readonly object: 'balance_transaction'
  /** Gross amount in the currency's minor unit; negative for money leaving the balance. */
  readonly amount: number
  /** Unix seconds at which the net amount moves from pending to available. */
  readonly available_on: number
  readonly balance_type: 'payments'
  /** Unix seconds. */
  readonly created: number
  readonly currency: string
  readonly description: string | null
  readonly exchange_rate: number | null
  readonly fee: number
  readonly fee_details: readonly FeeDetail[]
  readonly net: number
  /** `charge`, `refund`, `dispute`, `payout`, ... as the provider names them. */
  readonly reporting_category: string
  /** The object that caused it (`ch_…`, `re_…`, `po_…`). */
  readonly source: string | null
  readonly status: BalanceStatus
  /** `charge`, `refund`, `payment`, `adjustment`, ... as the provider names them. */
  readonly type: string
}

/**
 * Whether a transaction's money first went to the pending balance (it became available later, at
 * `available_on`), rather than straight to the available balance.
 *
 * @example
 * postedPending({ created: 100, available_on: 172_900 }) // true: a charge's 2-day wait
 */
export function postedPending(t: Pick<BalanceTransaction, 'created' | 'available_on'>): boolean {
  return t.available_on > t.created
}
