import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { formatMoney } from '../ledger/money-text.js'
import { refundableAmount } from '../payment-intents/charge.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Refunds: `succeeded` at once. `payment_intent` is read through to its latest charge; `amount`
 * defaults to what is left to refund. A refund moves money: the charge's `amount_refunded` rises,
 * a `refund` balance transaction leaves the balance at once, and `charge.refunded` is emitted
 * before `refund.created`; the charge's `refunds` list shows the refund as it is. Over-refunds are
 * refused with the provider's wording and change nothing.
 */
export const refunds: ResourceDeclaration<ResourcePorts> = {
  type: 'Refund',
  object: 'refund',
  idPrefix: 're',
  defaults: () => ({ status: 'succeeded' }),
  behaviours: {
    'refunds.update'(call, next, { ports }) {
      const updated = next() as Json
      if (typeof updated.charge === 'string') ports.charges.showRefund(call.scope, updated.charge, updated)
      return updated
    },
    'refunds.create'(call, next, { engine, ports }) {
      const { charge, payment_intent: pi, amount } = call.params
      const intent = typeof pi === 'string' ? engine.find(call.scope, pi) : undefined
      if (typeof pi === 'string' && intent === undefined) {
        throw invalidRequest(`No such payment_intent: '${pi}'`, { code: 'resource_missing', param: 'payment_intent' })
      }
      const chargeId = typeof charge === 'string' ? charge : intent?.latest_charge
      const found = typeof chargeId === 'string' ? ports.charges.get(call.scope, chargeId) : undefined
      if (typeof charge === 'string' && found === undefined) {
        throw invalidRequest(`No such charge: '${charge}'`, { code: 'resource_missing', param: 'charge' })
      }
      if (found === undefined) {
        if (intent !== undefined) {
          throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
            param: 'payment_intent',
          })
        }
        throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', {
          param: 'charge',
        })
      }
      const left = refundableAmount(found)
      if (found.status !== 'succeeded') {
        throw invalidRequest(`Charge ${found.id} has not succeeded, so it cannot be refunded.`, { param: 'charge' })
      }
      if (!found.captured) {
        throw invalidRequest(
          `Charge ${found.id} has not been captured; cancel its PaymentIntent to release the authorization instead.`,
          { param: 'charge' },
        )
      }
      if (left === 0) {
        throw invalidRequest(`Charge ${found.id} has already been refunded.`, { code: 'charge_already_refunded' })
      }
      const refund = amount === undefined ? left : (amount as number)
      if (!Number.isSafeInteger(refund) || refund < 1) {
        throw invalidRequest('This value must be greater than or equal to 1.', {
          code: 'parameter_invalid_integer',
          param: 'amount',
        })
      }
      if (refund > left) {
        const than = found.amount_refunded === 0 ? 'charge amount' : 'unrefunded amount on charge'
        throw invalidRequest(
          `Refund amount (${formatMoney(refund, found.currency as string)}) is greater than ${than} (${formatMoney(left, found.currency as string)})`,
          { code: 'amount_too_large', param: 'amount' },
        )
      }
      return next(
        {
          currency: found.currency,
          payment_intent: found.payment_intent ?? null,
          ...call.params,
          amount: refund,
          charge: found.id,
        },
        (created) => ({
          balance_transaction: ports.charges.refund(call.scope, found.id, refund, created, call.origin),
        }),
      )
    },
  },
}
