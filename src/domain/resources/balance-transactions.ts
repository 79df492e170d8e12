import type { ResourceDeclaration } from '../engine/declaration.js'
import { type Json, pageV1, passesRange } from '../engine/list.js'
import { balanceTransactionJson } from '../ledger/balance-transaction.js'
import { resourceMissing } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Balance transactions: read from the ledger, which records every money movement (charges,
 * refunds, payouts, transfers) and moves each from pending to available; the engine serves
 * retrieve and list (newest first, filtered by `type`, `source`, `currency`, `payout` and `created`).
 *
 * @example
 * engine.run('balanceTransactions.list', { scope, origin, path: {}, params: { type: 'charge' } })
 * // { object: 'list', data: [{ id: 'txn_…', type: 'charge', … }], has_more: false, url: '/v1/balance_transactions' }
 */
export const balanceTransactions: ResourceDeclaration<ResourcePorts> = {
  type: 'BalanceTransaction',
  object: 'balance_transaction',
  idPrefix: 'txn',
  only: [],
  find(scope, id, ports) {
    const t = ports.ledger.get(scope, id)
    return t === undefined ? undefined : (balanceTransactionJson(t) as Json)
  },
  behaviours: {
    'balanceTransactions.retrieve'(call, _next, { ports }) {
      const id = call.path.id ?? ''
      const t = ports.ledger.get(call.scope, id)
      if (t === undefined) throw resourceMissing('balance transaction', id)
      return balanceTransactionJson(t)
    },
    'balanceTransactions.list'(call, _next, { ports }) {
      const q = call.params
      const currency = typeof q.currency === 'string' ? q.currency.toLowerCase() : undefined
      const items = ports.ledger
        .transactions(call.scope)
        .filter(
          (t) =>
            (q.type === undefined || t.type === q.type) &&
            (q.source === undefined || t.source === q.source) &&
            (currency === undefined || t.currency === currency) &&
            // Only automatic payouts carry their transactions; the simulator's payouts are all manual.
            (q.payout === undefined || t.source === q.payout),
        )
        .map((t) => balanceTransactionJson(t) as Json)
        .filter((o) => q.created === undefined || passesRange(o.created, q.created, 'created'))
      return pageV1(items, q, '/v1/balance_transactions', 'balance transaction')
    },
  },
}
