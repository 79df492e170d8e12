import type { ResourceDeclaration } from '../engine/declaration.js'
import { parseCurrency, positiveAmount } from '../ledger/currencies.js'
import { requireAvailable } from './available-funds.js'
import type { ResourcePorts } from './ports.js'

/**
 * Payouts: `pending`, arriving in 2 days. A payout takes its amount out of the available balance
 * at once (a `payout` balance transaction) and is refused with `balance_insufficient` beyond it.
 */
export const payouts: ResourceDeclaration<ResourcePorts> = {
  type: 'Payout',
  object: 'payout',
  idPrefix: 'po',
  defaults: ({ created }) => ({
    arrival_date: created + 2 * 24 * 60 * 60,
    method: 'standard',
    source_type: 'card',
    status: 'pending',
    type: 'bank_account',
  }),
  behaviours: {
    'payouts.create'(call, next, { ports }) {
      const currency = parseCurrency(String(call.params.currency))
      const amount = positiveAmount(call.params.amount)
      requireAvailable(ports.ledger, call.scope, currency, amount, 'payout')
      return next({ ...call.params, currency }, (created) => ({
        balance_transaction: ports.ledger.post({
          account: call.scope.account,
          mode: call.scope.mode,
          currency,
          amount: -amount,
          type: 'payout',
          reportingCategory: 'payout',
          source: created.id as string,
          description: (call.params.description as string | undefined) ?? null,
          availableAfter: 0,
        }).id,
      }))
    },
  },
}
