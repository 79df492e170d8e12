import type { BehaviourEnv, OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { subList } from '../engine/sub-list.js'
import { emitSnapshot } from '../events/emit-snapshot.js'
import { requireAvailable } from '../ledger/available-funds.js'
import { positiveAmount } from '../ledger/currencies.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'

type Env = BehaviourEnv<ResourcePorts>

/** How much of a transfer is still reversible, and the amount a reversal asks for (all of it by default). */
function amountOf(call: OperationCall, transfer: Json): number {
  const left = (transfer.amount as number) - ((transfer.amount_reversed as number | undefined) ?? 0)
  if (left <= 0) throw tableError('transfer_already_reversed', { transfer: transfer.id }, { param: 'amount' })
  const amount = call.params.amount === undefined ? left : positiveAmount(call.params.amount)
  if (amount > left) throw tableError('transfer_reversal_too_large', { amount, left }, { param: 'amount' })
  return amount
}

/** Posts the money back: out of the destination's available balance, into the platform's at once. */
function move(env: Env, platform: Scope, destination: string, transfer: Json, amount: number, reversal: string): string {
  const currency = String(transfer.currency)
  const post = (account: string, signed: number, type: string) =>
    env.ports.ledger.post({
      account,
      mode: platform.mode,
      currency,
      amount: signed,
      type,
      reportingCategory: 'transfer_reversal',
      source: reversal,
      availableAfter: 0,
    }).id
  post(destination, -amount, 'payment_refund')
  return post(platform.account, amount, 'transfer_cancel')
}

/**
 * Transfer reversals (`/v1/transfers/:id/reversals`): money back from the connected account to the
 * platform, all that is left of the transfer unless `amount` says less. The destination's available
 * balance must hold it (`balance_insufficient` otherwise); the destination posts a
 * `payment_refund`, the platform a `transfer_cancel` balance transaction, both available at once.
 * The transfer's `amount_reversed`, `reversed` and `reversals` follow, and `transfer.reversed` is
 * emitted with the transfer. A reversal lives with its transfer in the platform's scope.
 *
 * @example
 * engine.run('transfers.createReversal', { scope, origin, path: { id: 'tr_1' }, params: { amount: 500 } })
 * // { id: 'trr_…', object: 'transfer_reversal', amount: 500, transfer: 'tr_1', balance_transaction: 'txn_…', ... }
 */
export const transferReversals: ResourceDeclaration<ResourcePorts> = {
  type: 'TransferReversal',
  object: 'transfer_reversal',
  idPrefix: 'trr',
  behaviours: {
    'transfers.createReversal'(call, next, env) {
      const transfers = env.engine.resource('transfer')
      const transferId = call.path.id ?? ''
      const transfer = transfers.require(call.scope, transferId)
      const amount = amountOf(call, transfer)
      const destination = String(transfer.destination)
      const currency = String(transfer.currency)
      requireAvailable(env.ports.ledger, { account: destination, mode: call.scope.mode }, currency, amount, 'transfer reversal')
      const reversal = next({ ...call.params, amount, currency }, (created) => ({
        balance_transaction: move(env, call.scope, destination, transfer, amount, String(created.id)),
        destination_payment_refund: null,
        source_refund: null,
      })) as Json
      const reversed = (transfer.amount_reversed as number) + amount
      const list = (transfer.reversals as Json | undefined) ?? subList(`/v1/transfers/${transferId}/reversals`)
      const data = [reversal, ...((list.data as Json[] | undefined) ?? [])]
      const updated = transfers.put(call.scope, transferId, {
        amount_reversed: reversed,
        reversed: reversed >= (transfer.amount as number),
        reversals: { ...list, data, total_count: data.length },
      })
      const previous = { amount_reversed: transfer.amount_reversed, reversed: transfer.reversed }
      emitSnapshot(env.ports.events, 'transfer.reversed', call.scope, updated, call.origin, previous)
      return reversal
    },
    'transfers.updateReversal'(call, next, env) {
      const updated = next() as Json
      // The transfer's `reversals` list shows the reversal as it is now.
      const transfers = env.engine.resource('transfer')
      const transfer = transfers.get(call.scope, String(updated.transfer))
      const list = transfer?.reversals as Json | undefined
      if (transfer !== undefined && list !== undefined) {
        const data = ((list.data as Json[] | undefined) ?? []).map((r) => (r.id === updated.id ? updated : r))
        transfers.put(call.scope, transfer.id, { reversals: { ...list, data } })
      }
      return updated
    },
  },
}
