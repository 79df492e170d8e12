import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'

/**
 * Captures `amount` of an authorised charge; a partial capture releases the rest, as the provider
 * does: a refund of the uncaptured remainder (no money moved: it was never captured) shows in
 * `amount_refunded` and the charge's `refunds`, and what is left to refund is what was captured.
 *
 * @example
 * captureCharge(engine, ports, scope, 'ch_1', 600, origin) // a 1000 charge: amount_captured 600, amount_refunded 400
 */
export function captureCharge(
  engine: Engine,
  ports: ResourcePorts,
  scope: Scope,
  chargeId: string,
  amount: number,
  origin: Origin,
): Json {
  const captured = ports.charges.capture(scope, chargeId, amount, origin)
  const remainder = Number(captured.amount) - amount
  if (remainder <= 0) return captured
  const fields = { charge: captured.id, payment_intent: captured.payment_intent ?? null, status: 'succeeded' }
  // Made with the refund, so `charge.refunded` comes before `refund.created` as for any refund.
  engine.resource('refund').create(scope, { amount: remainder, currency: captured.currency }, origin, (created) => {
    ports.charges.releaseRemainder(scope, captured.id, { ...created, ...fields }, origin)
    return fields
  })
  return ports.charges.get(scope, chargeId) ?? captured
}
