import type { Behaviour } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { microdepositAction, microdepositsMatch } from '../bank-debit.js'
import { createMandate, mandateOf } from '../mandates.js'
import type { PaymentMethod } from '../payment-method.js'
import { succeedSetup } from './setup-flow.js'

/**
 * Whether confirming a setup intent with `pm` waits for microdeposits: a bank account entered by
 * hand is verified before it can be debited, unless an active mandate already covers it.
 *
 * @example
 * needsMicrodeposits(engine, scope, pm) // true for a new us_bank_account payment method
 */
export function needsMicrodeposits(engine: Engine, scope: Scope, pm: PaymentMethod): boolean {
  return pm.type === 'us_bank_account' && mandateOf(engine, scope, pm.id)?.status !== 'active'
}

/**
 * Moves a setup intent being confirmed with an unverified bank account to `requires_action`
 * (`verify_with_microdeposits`), its mandate `pending` until the amounts are given back, and emits
 * `setup_intent.requires_action`.
 *
 * @example
 * awaitMicrodeposits(engine, scope, si, pm, params.mandate_data, origin).status // 'requires_action'
 */
export function awaitMicrodeposits(
  engine: Engine,
  scope: Scope,
  si: Json,
  pm: PaymentMethod,
  mandateData: unknown,
  origin: Origin,
): Json {
  const mandate = createMandate(engine, scope, pm, mandateData, 'pending')
  const waiting = engine.resource('setup_intent').set(
    scope,
    si.id,
    {
      mandate: mandate.id,
      next_action: microdepositAction(si, engine.now()),
      payment_method: pm.id,
      status: 'requires_action',
    },
    origin,
  )
  engine.emit('setup_intent.requires_action', scope, waiting, origin)
  return waiting
}

/**
 * `setupIntents.verifyMicrodeposits`: the provider's test amounts (32 and 45 cents) or descriptor
 * code (`SM11AA`) verify the bank account of a setup intent waiting for them: its mandate becomes
 * active and the intent `succeeded` (`setup_intent.succeeded`). Wrong values are refused with the
 * provider's codes and change nothing; so is an intent not waiting for microdeposits.
 *
 * @example
 * await stripe.setupIntents.verifyMicrodeposits(si.id, { amounts: [32, 45] }) // status 'succeeded'
 */
export const verifySetupMicrodeposits: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const r = engine.resource('setup_intent')
  const si = r.require(call.scope, call.path.intent ?? call.path.id ?? '')
  const action = si.next_action as { type?: unknown } | null
  if (si.status !== 'requires_action' || action?.type !== 'verify_with_microdeposits') {
    throw tableError(
      'setup_intent_unexpected_state',
      { action: 'verify microdeposits on', status: String(si.status), past: 'verified', allowed: 'requires_action' },
      { extra: { setup_intent: si } },
    )
  }
  const match = microdepositsMatch(call.params)
  if (match === undefined) throw tableError('microdeposit_amounts_invalid', {}, { param: 'amounts' })
  if (!match) {
    const byCode = typeof call.params.descriptor_code === 'string'
    throw tableError(
      byCode ? 'microdeposit_descriptor_mismatch' : 'microdeposit_amounts_mismatch',
      {},
      {
        param: byCode ? 'descriptor_code' : 'amounts',
      },
    )
  }
  if (typeof si.mandate === 'string') engine.resource('mandate').set(call.scope, si.mandate, { status: 'active' }, call.origin)
  const pm = ports.paymentMethods.resolve(call.scope, String(si.payment_method), 'payment_method')
  // Verified: it succeeds as any setup does (the account attached to the customer, a waiting subscription settled).
  return succeedSetup({ engine, paymentMethods: ports.paymentMethods }, call.scope, si, pm, undefined, call.origin)
}
