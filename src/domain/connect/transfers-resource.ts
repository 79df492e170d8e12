import type { ResourceDeclaration } from '../engine/declaration.js'
import { subList } from '../engine/sub-list.js'
import { requireAvailable } from '../ledger/available-funds.js'
import { parseCurrency, positiveAmount } from '../ledger/currencies.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { destinationPayment } from './destination-payment.js'

/**
 * Transfers from a platform to one of its connected accounts: the amount leaves the platform's
 * available balance (a `transfer` balance transaction) and arrives in the destination's available
 * balance (a `payment` balance transaction of the transfer's `destination_payment` there, a `py_`
 * charge), refused with `balance_insufficient` beyond it and with
 * 400 for a destination that is not the platform's connected account. Reversals
 * (`transfer-reversals.ts`) bring money back.
 */
export const transfers: ResourceDeclaration<ResourcePorts> = {
  type: 'Transfer',
  object: 'transfer',
  idPrefix: 'tr',
  behaviours: {
    'transfers.create'(call, next, env) {
      const { ports } = env
      const currency = parseCurrency(String(call.params.currency))
      const amount = positiveAmount(call.params.amount)
      const destination = String(call.params.destination)
      const account = ports.accounts.get(destination)
      if (account === undefined || account.platform !== call.scope.account) {
        throw tableError('resource_missing', { kind: 'destination', id: destination }, { param: 'destination', status: 400 })
      }
      requireAvailable(ports.ledger, call.scope, currency, amount, 'transfer')
      const post = (scope: { account: string; mode: typeof call.scope.mode }, signed: number, type: string, source: string) =>
        ports.ledger.post({
          account: scope.account,
          mode: scope.mode,
          currency,
          amount: signed,
          type,
          reportingCategory: 'transfer',
          source,
          availableAfter: 0,
        }).id
      return next({ ...call.params, currency }, (created) => {
        const id = created.id as string
        const txn = post(call.scope, -amount, 'transfer', id)
        const arrival = { id, amount, currency, from: call.scope }
        const payment = destinationPayment(env, destination, arrival, (py) =>
          post({ account: destination, mode: call.scope.mode }, amount, 'payment', py),
        )
        return {
          balance_transaction: txn,
          destination_payment: payment.id,
          amount_reversed: 0,
          reversed: false,
          reversals: subList(`/v1/transfers/${id}/reversals`),
        }
      })
    },
  },
}
