import type { BehaviourEnv, OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { pageV1 } from '../engine/list.js'
import { emitSnapshot } from '../events/emit-snapshot.js'
import { positiveAmount } from '../ledger/currencies.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing, tableError } from '../service-error.js'

type Env = BehaviourEnv<ResourcePorts>

function feeOf(env: Env, call: OperationCall, id: string): Json {
  return env.engine.resource('application_fee').require(call.scope, id)
}

/** A refund of this fee, else 404. */
function refundOf(env: Env, call: OperationCall): Json {
  const fee = feeOf(env, call, call.path.feeId ?? '')
  const id = call.path.id ?? ''
  const refund = env.engine.resource('fee_refund').get(call.scope, id)
  if (refund === undefined || refund.fee !== fee.id) throw resourceMissing('fee_refund', id)
  return refund
}

/** The fee's `refunds` list with `refund` first (new) or in its place (changed). */
function showRefund(env: Env, call: OperationCall, fee: Json, refund: Json, extra: Readonly<Record<string, unknown>> = {}): Json {
  const list = fee.refunds as { data: Json[] }
  const known = list.data.some((r) => r.id === refund.id)
  const data = known ? list.data.map((r) => (r.id === refund.id ? refund : r)) : [refund, ...list.data]
  return env.engine
    .resource('application_fee')
    .put(call.scope, fee.id, { ...extra, refunds: { ...list, data, total_count: data.length } })
}

/**
 * Refunds of application fees (`/v1/application_fees/:id/refunds`): all that is left of the fee
 * unless `amount` says less; the amount goes back from the platform to the connected account at
 * once (`application_fee_refund` balance transactions on both sides). The fee's `amount_refunded`,
 * `refunded` and `refunds` follow and `application_fee.refunded` is emitted with the fee; a
 * refund's metadata update emits `application_fee.refund.updated`.
 *
 * @example
 * engine.run('applicationFees.createRefund', { scope, origin, path: { id: 'fee_1' }, params: { amount: 50 } })
 * // { id: 'fr_…', object: 'fee_refund', amount: 50, fee: 'fee_1', balance_transaction: 'txn_…', ... }
 */
export const feeRefunds: ResourceDeclaration<ResourcePorts> = {
  type: 'FeeRefund',
  object: 'fee_refund',
  noun: 'fee_refund',
  idPrefix: 'fr',
  eventPrefix: 'application_fee.refund',
  behaviours: {
    'applicationFees.createRefund'(call, next, env) {
      const fee = feeOf(env, call, call.path.id ?? '')
      const left = (fee.amount as number) - (fee.amount_refunded as number)
      if (left <= 0) throw tableError('application_fee_already_refunded', { fee: fee.id }, { param: 'amount' })
      const amount = call.params.amount === undefined ? left : positiveAmount(call.params.amount)
      if (amount > left) throw tableError('fee_refund_too_large', { amount, left }, { param: 'amount' })
      const currency = String(fee.currency)
      const refund = next({ ...call.params, amount, currency }, (created) => {
        const post = (account: string, signed: number) =>
          env.ports.ledger.post({
            account,
            mode: call.scope.mode,
            currency,
            amount: signed,
            type: 'application_fee_refund',
            reportingCategory: 'platform_earning_refund',
            source: String(created.id),
            availableAfter: 0,
          }).id
        post(String(fee.account), amount)
        return { fee: fee.id, balance_transaction: post(call.scope.account, -amount) }
      }) as Json
      const refunded = (fee.amount_refunded as number) + amount
      const updated = showRefund(env, call, fee, refund, {
        amount_refunded: refunded,
        refunded: refunded >= (fee.amount as number),
      })
      const previous = { amount_refunded: fee.amount_refunded, refunded: fee.refunded }
      emitSnapshot(env.ports.events, 'application_fee.refunded', call.scope, updated, call.origin, previous)
      return refund
    },
    'applicationFees.listRefunds'(call, _next, env) {
      const fee = feeOf(env, call, call.path.id ?? '')
      const data = env.engine
        .resource('fee_refund')
        .list(call.scope)
        .filter((r) => r.fee === fee.id)
      return pageV1(data, call.params, `/v1/application_fees/${fee.id}/refunds`, 'fee_refund')
    },
    'applicationFees.retrieveRefund'(call, _next, env) {
      return refundOf(env, call)
    },
    'applicationFees.updateRefund'(call, _next, env) {
      const refund = refundOf(env, call)
      const updated = env.engine.resource('fee_refund').update(call.scope, String(refund.id), call.params, call.origin)
      showRefund(env, call, feeOf(env, call, String(refund.fee)), updated)
      return updated
    },
  },
}
