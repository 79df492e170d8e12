import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import { formatMoney } from '../../ledger/money-text.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { refundableAmount } from '../charge.js'
import { checkOrigin, followRefund, openingFields } from './refund-opening.js'
import { cancelRefund, expireRefund } from './refund-waiting.js'

/**
 * Refunds: `succeeded` at once. `payment_intent` is read through to its latest charge; `amount`
 * defaults to what is left to refund. A refund moves money: the charge's `amount_refunded` rises,
 * a `refund` balance transaction leaves the balance at once, and `charge.refunded` is emitted
 * before `refund.created`; the charge's `refunds` list shows the refund as it is. Over-refunds are
 * refused with the provider's wording and change nothing. A refund of a bank transfer payment
 * waits for the customer's bank details (`requires_action`, `refund-waiting.ts`), or goes back to
 * the customer's cash balance (`origin: 'customer_balance'`); one of a bank debit is `pending`
 * until the bank answers; a refund of the refund-failure test card fails later
 * (`refund-opening.ts`, `refund-timers.ts`). Only a waiting refund can be canceled or expired,
 * giving its money back.
 */
export const refunds: ResourceDeclaration<ResourcePorts> = {
  type: 'Refund',
  object: 'refund',
  idPrefix: 're',
  defaults: () => ({ status: 'succeeded' }),
  behaviours: {
    'refunds.cancel': cancelRefund,
    'testHelpers.refunds.expire': expireRefund,
    'refunds.update'(call, next, { ports }) {
      const updated = next() as Json
      if (typeof updated.charge === 'string') ports.charges.showRefund(call.scope, updated.charge, updated)
      return updated
    },
    'refunds.create'(call, next, { engine, ports }) {
      const { charge, payment_intent: pi, amount } = call.params
      const intent = typeof pi === 'string' ? engine.find(call.scope, pi) : undefined
      if (typeof pi === 'string' && intent === undefined) {
        throw tableError('resource_missing', { kind: 'payment_intent', id: pi }, { param: 'payment_intent', status: 400 })
      }
      const chargeId = typeof charge === 'string' ? charge : intent?.latest_charge
      const found = typeof chargeId === 'string' ? ports.charges.get(call.scope, chargeId) : undefined
      if (typeof charge === 'string' && found === undefined) {
        throw tableError('resource_missing', { kind: 'charge', id: charge }, { param: 'charge', status: 400 })
      }
      if (found === undefined) {
        if (intent !== undefined) {
          throw tableError('refund_no_successful_charge', { id: String(intent.id) }, { param: 'payment_intent' })
        }
        throw tableError('refund_source_missing', {}, { param: 'charge' })
      }
      const left = refundableAmount(found)
      if (found.status !== 'succeeded') {
        throw tableError('charge_not_succeeded', { charge: found.id }, { param: 'charge' })
      }
      if (!found.captured) {
        throw tableError('charge_not_captured', { charge: found.id }, { param: 'charge' })
      }
      if (found.disputed === true) {
        throw tableError('charge_disputed', { charge: found.id }, { param: 'charge' })
      }
      if (left === 0) {
        throw tableError('charge_already_refunded', { charge: found.id })
      }
      const refund = amount === undefined ? left : (amount as number)
      if (!Number.isSafeInteger(refund) || refund < 1) {
        throw tableError('value_too_small', { min: 1 }, { param: 'amount' })
      }
      if (refund > left) {
        const than = found.amount_refunded === 0 ? 'charge amount' : 'unrefunded amount on charge'
        throw tableError(
          'refund_amount_too_large',
          { amount: formatMoney(refund, found.currency as string), than, left: formatMoney(left, found.currency as string) },
          { param: 'amount' },
        )
      }
      checkOrigin(found, call.params)
      const made = next(
        {
          currency: found.currency,
          payment_intent: found.payment_intent ?? null,
          ...call.params,
          amount: refund,
          charge: found.id,
        },
        (created) => {
          // A refund that waits (for the customer, for the bank) moves the money now, as any
          // refund; one that ends without succeeding gives it back.
          const opening = openingFields(engine, call.scope, found, call.params)
          return {
            ...opening,
            balance_transaction: ports.charges.refund(call.scope, found.id, refund, { ...created, ...opening }, call.origin),
          }
        },
      ) as Json
      followRefund(engine, ports, call.scope, made, found, call.origin)
      return made
    },
  },
}
