import { cashAvailable, recordCash } from '../customers/cash-balance-resource.js'
import type { Behaviour } from '../engine/declaration.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { achFee, transferAction } from './bank-debit.js'
import { unexpectedState } from './payment-intent.js'

/**
 * `paymentIntents.applyCustomerBalance`: moves funds from the customer's cash balance (funded by
 * bank transfer, `testHelpers.customers.fundCashBalance`) to an intent waiting for a bank transfer
 * (`display_bank_transfer_instructions`): `amount` or as much as the intent still needs and the
 * balance holds, as an `applied_to_payment` cash balance transaction. Once fully funded the intent
 * succeeds with its charge and balance transaction (`payment_intent.succeeded`); until then its
 * `amount_remaining` falls.
 *
 * @example
 * await stripe.paymentIntents.applyCustomerBalance(pi.id) // succeeded when the balance covers it
 */
export const applyCustomerBalance: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const r = engine.resource('payment_intent')
  const pi = r.require(call.scope, call.path.id ?? '')
  const action = pi.next_action as { type?: unknown; display_bank_transfer_instructions?: { amount_remaining?: unknown } } | null
  if (pi.status !== 'requires_action' || action?.type !== 'display_bank_transfer_instructions') {
    throw unexpectedState(pi, 'apply a customer balance to', ['requires_action'])
  }
  const remaining = action.display_bank_transfer_instructions?.amount_remaining as number
  const customer = pi.customer as string
  const currency = pi.currency as string
  const available = cashAvailable(engine, call.scope, customer, currency)
  const asked = (call.params.amount ?? Math.min(remaining, available)) as number
  if (!Number.isSafeInteger(asked) || asked < 1) throw tableError('customer_cash_balance_empty', { customer, currency })
  if (asked > remaining || asked > available) {
    throw tableError('customer_cash_balance_short', { amount: asked, remaining, available }, { param: 'amount' })
  }
  recordCash(engine, call.scope, call.origin, {
    customer,
    currency,
    net: -asked,
    type: 'applied_to_payment',
    details: { payment_intent: pi.id },
  })
  const left = remaining - asked
  if (left > 0) return r.put(call.scope, pi.id, { next_action: transferAction(pi, left) })
  const pm = ports.paymentMethods.get(call.scope, pi.payment_method as string)
  if (pm === undefined) throw new Error(`payment intent ${pi.id}: payment method vanished`)
  const amount = pi.amount as number
  const result = ports.charges.attempt(
    call.scope,
    {
      amount,
      currency,
      customer,
      paymentMethod: pm,
      paymentIntent: pi.id,
      description: pi.description as string | null,
      metadata: pi.metadata as Record<string, string>,
      capture: true,
      details: { customer_balance: {}, type: 'customer_balance' },
      fee: achFee(amount),
    },
    call.origin,
  )
  const done = r.put(call.scope, pi.id, {
    amount_received: amount,
    latest_charge: result.id,
    next_action: null,
    status: 'succeeded',
  })
  ports.paymentIntents.emit('payment_intent.succeeded', call.scope, done, NO_ORIGIN)
  return done
}
