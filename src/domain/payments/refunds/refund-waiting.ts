import { DAY } from '#kernel/time.js'
import type { Behaviour } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import type { Charges } from '../charges.js'

/** How long the customer has to give the details a waiting refund needs. */
export const INSTRUCTIONS_VALID_MS = 45 * DAY

/**
 * The fields of a refund waiting for the customer: `requires_action` with the provider's
 * `display_details` action (the instructions email, to `instructions_email` or the customer's
 * email, and when it expires).
 *
 * @example
 * waitingFields(engine, scope, charge, params) // { status: 'requires_action', next_action: { type: 'display_details', ... } }
 */
export function waitingFields(
  engine: Engine,
  scope: Scope,
  charge: Json,
  params: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const customer = typeof charge.customer === 'string' ? engine.resource('customer').get(scope, charge.customer) : undefined
  const to = typeof params.instructions_email === 'string' ? params.instructions_email : (customer?.email ?? null)
  const now = engine.now()
  return {
    status: 'requires_action',
    instructions_email: to,
    next_action: {
      type: 'display_details',
      display_details: {
        email_sent: { email_sent_at: now, email_sent_to: to },
        expires_at: now + INSTRUCTIONS_VALID_MS / 1000,
      },
    },
  }
}

/**
 * Ends a waiting refund: its money comes back (`refund_failure`) and it is `canceled`; one not
 * waiting is refused with the provider's rule for `action`.
 *
 * @example
 * endWaiting(engine, ports.charges, scope, refund, 'expire', origin).status // 'canceled'
 */
export function endWaiting(
  engine: Engine,
  charges: Pick<Charges, 'unrefund' | 'showRefund'>,
  scope: Scope,
  refund: Json,
  action: 'cancel' | 'expire',
  origin: Origin,
): Json {
  const r = engine.resource('refund')
  if (refund.status !== 'requires_action') {
    throw tableError(action === 'cancel' ? 'refund_not_cancelable' : 'refund_not_expirable', {
      id: refund.id,
      status: String(refund.status),
    })
  }
  const fields = { status: 'canceled', next_action: null }
  const failure = typeof refund.charge === 'string' ? charges.unrefund(scope, refund.charge, { ...refund, ...fields }) : null
  const ended = r.set(scope, refund.id, { ...fields, failure_balance_transaction: failure }, origin)
  if (typeof ended.charge === 'string') charges.showRefund(scope, ended.charge, ended)
  return ended
}

/**
 * `refunds.cancel`: a refund waiting for the customer is canceled and its money comes back to
 * the balance; any other is refused, as at the provider, and nothing changes.
 *
 * @example
 * await stripe.refunds.cancel(refund.id) // status 'canceled'
 */
export const cancelRefund: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const refund = engine.resource('refund').require(call.scope, call.path.id ?? call.path.refund ?? '')
  return endWaiting(engine, ports.charges, call.scope, refund, 'cancel', call.origin)
}

/**
 * `testHelpers.refunds.expire`: what happens when the customer never answers a waiting refund's
 * instructions: it is canceled and its money comes back; a refund not waiting is refused.
 *
 * @example
 * await stripe.testHelpers.refunds.expire(refund.id) // status 'canceled'
 */
export const expireRefund: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const refund = engine.resource('refund').require(call.scope, call.path.id ?? call.path.refund ?? '')
  return endWaiting(engine, ports.charges, call.scope, refund, 'expire', call.origin)
}
