import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { createMandate } from '../payment-intents/mandates.js'
import type { ResourcePorts } from './ports.js'
import { awaitMicrodeposits, needsMicrodeposits, verifySetupMicrodeposits } from './setup-intent-microdeposits.js'

/**
 * Setup intents: plain create/retrieve/update/list; `confirm` succeeds with the payment method
 * given (a test token makes one), recording a mandate when an off-session setup carries the
 * customer's acceptance (`mandate_data`); `cancel` cancels. A bank account entered by hand waits for microdeposits
 * (`requires_action`) until `verifyMicrodeposits` gives back the test amounts.
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
    'setupIntents.verifyMicrodeposits': verifySetupMicrodeposits,
    'setupIntents.confirm'(call, _next, { engine, ports }) {
      const r = engine.resource('setup_intent')
      const si = r.require(call.scope, call.path.intent ?? call.path.id ?? '')
      const given = call.params.payment_method ?? si.payment_method
      if (typeof given !== 'string') return r.set(call.scope, si.id, { status: 'requires_payment_method' }, call.origin)
      const pm = ports.paymentMethods.resolve(call.scope, given, 'payment_method')
      if (needsMicrodeposits(engine, call.scope, pm)) {
        return awaitMicrodeposits(engine, call.scope, si, pm, call.params.mandate_data, call.origin)
      }
      // A setup for later off-session payments with the customer's acceptance records a mandate.
      const mandateData = call.params.mandate_data
      const mandate =
        mandateData !== undefined && si.usage === 'off_session'
          ? createMandate(engine, call.scope, pm, mandateData, 'active').id
          : si.mandate
      return r.set(call.scope, si.id, { mandate, payment_method: pm.id, status: 'succeeded' }, call.origin)
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
