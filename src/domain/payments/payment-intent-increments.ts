import { checkLength, checkMetadata } from '../engine/checks.js'
import type { Behaviour } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { unexpectedState } from './payment-intent.js'

/** The provider's limit on a statement descriptor. */
const STATEMENT_DESCRIPTOR_MAX = 22

/**
 * `paymentIntents.incrementAuthorization`: raises the amount held by a manual-capture card intent
 * in `requires_capture` whose charge allows it (confirmed with
 * `payment_method_options[card][request_incremental_authorization]=if_available`). The intent's
 * `amount` and `amount_capturable` and the charge's amount and `amount_authorized` follow; no money
 * moves until capture; `payment_intent.amount_capturable_updated` is emitted.
 *
 * @example
 * await stripe.paymentIntents.incrementAuthorization(pi.id, { amount: 3000 }) // amount_capturable 3000
 */
export const incrementAuthorization: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const r = engine.resource('payment_intent')
  const pi = r.require(call.scope, call.path.id ?? '')
  const p = call.params
  if (pi.status !== 'requires_capture') throw unexpectedState(pi, 'increment the authorization of', ['requires_capture'])
  const charge = typeof pi.latest_charge === 'string' ? ports.charges.get(call.scope, pi.latest_charge) : undefined
  const details = charge?.payment_method_details as { card?: Record<string, unknown> } | undefined
  const card = details?.card
  if (
    charge === undefined ||
    card === undefined ||
    (card.incremental_authorization as { status?: unknown })?.status !== 'available'
  ) {
    throw tableError('incremental_authorization_unavailable')
  }
  const amount = p.amount as number
  const current = pi.amount as number
  if (!Number.isSafeInteger(amount) || amount <= current) {
    throw tableError('increment_amount_too_small', { current }, { param: 'amount' })
  }
  checkMetadata(p.metadata)
  checkLength(p.statement_descriptor, 'statement_descriptor', STATEMENT_DESCRIPTOR_MAX)
  engine.resource('charge').put(call.scope, charge.id, {
    amount,
    payment_method_details: { ...details, card: { ...card, amount_authorized: amount } },
  })
  const fields = { amount, amount_capturable: amount }
  const raised = r.update(
    call.scope,
    pi.id,
    { description: p.description, metadata: p.metadata, statement_descriptor: p.statement_descriptor },
    call.origin,
    fields,
  )
  ports.paymentIntents.emit('payment_intent.amount_capturable_updated', call.scope, raised, call.origin)
  return raised
}
