import type { OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { withReturnUrl } from '../payment-intent-redirect.js'
import { confirmSetup } from './setup-flow.js'
import { awaitMicrodeposits, needsMicrodeposits, verifySetupMicrodeposits } from './setup-intent-microdeposits.js'

/**
 * Setup intents: plain retrieve/update/list; `confirm` (and `create` with `confirm: true`) sets up
 * the payment method given (a test token makes one): a 3-D Secure card stops in `requires_action`
 * until the customer authenticates, a bank account entered by hand waits for microdeposits
 * (`requires_action`) until `verifyMicrodeposits` gives back the test amounts; otherwise it
 * succeeds, recording a mandate when an off-session setup carries the customer's acceptance
 * (`mandate_data`) and attaching the method to the intent's customer (`setup_intent.succeeded`);
 * `cancel` cancels.
 */
export const setupIntents: ResourceDeclaration<ResourcePorts> = {
  type: 'SetupIntent',
  object: 'setup_intent',
  idPrefix: 'seti',
  defaults: ({ id }) => ({
    client_secret: `${id}_secret_${id.slice(5, 17)}`,
    payment_method_types: ['card'],
    status: 'requires_payment_method',
    usage: 'off_session',
  }),
  behaviours: {
    'setupIntents.create'(call, next, { engine, ports }) {
      const given = call.params.payment_method
      const confirm = call.params.confirm === true || call.params.confirm === 'true'
      // Checked before the intent is made, so a bad method changes nothing.
      if (confirm && typeof given === 'string') ports.paymentMethods.check(call.scope, given, 'payment_method')
      const created = next() as Json
      if (!confirm || typeof given !== 'string') return created
      return confirmWith(call, engine, ports, created, given)
    },
    'setupIntents.verifyMicrodeposits': verifySetupMicrodeposits,
    'setupIntents.confirm'(call, _next, { engine, ports }) {
      const r = engine.resource('setup_intent')
      const si = r.require(call.scope, call.path.intent ?? call.path.id ?? '')
      const given = call.params.payment_method ?? si.payment_method
      if (typeof given !== 'string') return r.set(call.scope, si.id, { status: 'requires_payment_method' }, call.origin)
      const customer = typeof si.customer === 'string' ? si.customer : undefined
      if (customer !== undefined) ports.paymentMethods.checkAttachable(call.scope, given, customer, 'payment_method')
      return confirmWith(call, engine, ports, si, given)
    },
    'setupIntents.cancel'(call, _next, { engine }) {
      const r = engine.resource('setup_intent')
      const si: Json = r.require(call.scope, call.path.intent ?? call.path.id ?? '')
      return r.set(
        call.scope,
        si.id,
        { status: 'canceled', cancellation_reason: call.params.cancellation_reason ?? null },
        call.origin,
      )
    },
  },
}

/**
 * Confirms a setup intent with the payment method `given` (`create` with `confirm: true` and
 * `confirm` end alike): a bank account entered by hand waits for microdeposits, anything else
 * goes through `confirmSetup`, a 3-D Secure wait redirecting to `return_url` when one is given.
 */
function confirmWith(call: OperationCall, engine: Engine, ports: ResourcePorts, si: Json, given: string): unknown {
  const pm = ports.paymentMethods.resolve(call.scope, given, 'payment_method')
  if (needsMicrodeposits(engine, call.scope, pm)) {
    return awaitMicrodeposits(engine, call.scope, si, pm, call.params.mandate_data, call.origin)
  }
  const deps = { engine, paymentMethods: ports.paymentMethods }
  const done = confirmSetup(deps, call.scope, si, pm, call.params.mandate_data, call.origin)
  return withReturnUrl(engine, call.scope, done, call.params.return_url)
}
