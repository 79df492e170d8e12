import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { PaymentMethod } from './payment-method.js'

/** The `customer_acceptance` of a request's `mandate_data`, if it has one. */
function acceptanceOf(mandateData: unknown): Record<string, unknown> | undefined {
  const given = (mandateData as { customer_acceptance?: unknown } | undefined)?.customer_acceptance
  return typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : undefined
}

/**
 * Makes the multi-use mandate an intent for later off-session payments records: the customer's
 * acceptance from `mandate_data` (online by default, accepted now), the payment method and its
 * type's details. `pending` until the bank account is verified, else `active`.
 *
 * @example
 * const mandate = createMandate(engine, scope, pm, { customer_acceptance: { type: 'offline' } }, 'active')
 * mandate.id // 'mandate_…'
 */
export function createMandate(
  engine: Engine,
  scope: Scope,
  pm: PaymentMethod,
  mandateData: unknown,
  status: 'active' | 'pending',
): Json {
  const given = acceptanceOf(mandateData) ?? { type: 'online' }
  const type = given.type === 'offline' ? 'offline' : 'online'
  const online = given.online as Record<string, unknown> | undefined
  const pmType = String(pm.type ?? 'card')
  return engine.resource('mandate').create(scope, {}, NO_ORIGIN, {
    customer_acceptance: {
      accepted_at: typeof given.accepted_at === 'number' ? given.accepted_at : engine.now(),
      ...(type === 'offline'
        ? { offline: {} }
        : { online: { ip_address: online?.ip_address ?? null, user_agent: online?.user_agent ?? null } }),
      type,
    },
    multi_use: {},
    payment_method: pm.id,
    payment_method_details: { [pmType]: {}, type: pmType },
    status,
    type: 'multi_use',
  })
}

/**
 * The newest mandate of a payment method, if any.
 *
 * @example
 * mandateOf(engine, scope, 'pm_1')?.status // 'active'
 */
export function mandateOf(engine: Engine, scope: Scope, paymentMethod: string): Json | undefined {
  return engine
    .resource('mandate')
    .list(scope)
    .find((m) => m.payment_method === paymentMethod)
}
