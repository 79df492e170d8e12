import type { ResourceDeclaration } from '../engine/declaration.js'
import { pageV1, passesRange } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'

/**
 * Balance transactions: the ledger stores each money movement (charges, refunds, payouts,
 * transfers) here as the API shows it and moves each from pending to available; the engine serves
 * retrieve from the store, and list (newest first, filtered by `type`, `source`, `currency`,
 * `payout` and `created`) reads the same stored objects.
 *
 * @example
 * engine.run('balanceTransactions.list', { scope, origin, path: {}, params: { type: 'charge' } })
 * // { object: 'list', data: [{ id: 'txn_…', type: 'charge', … }], has_more: false, url: '/v1/balance_transactions' }
 */
export const balanceTransactions: ResourceDeclaration<ResourcePorts> = {
  type: 'BalanceTransaction',
  object: 'balance_transaction',
  noun: 'balance transaction',
  idPrefix: 'txn',
  // Made by the ledger's postings alone: no create, update or delete.
  only: ['retrieve'],
  behaviours: {
    'balanceTransactions.list'(call, _next, { engine }) {
      const q = call.params
      const currency = typeof q.currency === 'string' ? q.currency.toLowerCase() : undefined
      const items = engine
        .resource('balance_transaction')
        .list(call.scope)
        .filter(
          (t) =>
            (q.type === undefined || t.type === q.type) &&
            (q.source === undefined || t.source === q.source) &&
            (currency === undefined || t.currency === currency) &&
            // Only automatic payouts carry their transactions; the simulator's payouts are all manual.
            (q.payout === undefined || t.source === q.payout) &&
            (q.created === undefined || passesRange(t.created, q.created, 'created')),
        )
      return pageV1(items, q, '/v1/balance_transactions', 'balance transaction')
    },
  },
}
