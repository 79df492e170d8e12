import type { BehaviourEnv } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'

/** A transfer arriving in a connected account: its id, amount, currency and the sender's scope. */
export interface ArrivingTransfer {
  readonly id: string
  readonly amount: number
  readonly currency: string
  readonly from: Scope
}

/**
 * The payment a transfer makes in the connected account it reaches (`py_`), as the provider
 * records every transfer there: a succeeded charge of the transfer's amount with
 * `source_transfer`, paid by the platform's account (`payment_method_details.type:
 * stripe_account`), whose balance transaction is the arrival. Stored without an event, as the
 * provider announces the transfer, not this payment. `post` books the arrival with the payment's
 * id as its source and answers the balance transaction's id.
 *
 * @example
 * const py = destinationPayment(env, destination, transfer, (id) => post(destination, amount, 'payment', id))
 * // the transfer then shows destination_payment: py.id
 */
export function destinationPayment(
  env: BehaviourEnv<ResourcePorts>,
  destination: string,
  transfer: ArrivingTransfer,
  post: (paymentId: string) => string,
): Json {
  const scope: Scope = { account: destination, mode: transfer.from.mode }
  const charges = env.engine.resource('charge')
  const id = env.ports.billing.newId('py')
  const payment = charges.build(scope, id, {})
  Object.assign(payment, {
    amount: transfer.amount,
    amount_captured: transfer.amount,
    amount_refunded: 0,
    balance_transaction: post(id),
    captured: true,
    currency: transfer.currency,
    paid: true,
    payment_method_details: { type: 'stripe_account', stripe_account: {} },
    source_transfer: transfer.id,
    status: 'succeeded',
  })
  return charges.insert(scope, payment)
}
