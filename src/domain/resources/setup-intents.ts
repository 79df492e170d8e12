import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { createMandate } from '../payment-intents/mandates.js'
import { settlePendingSetupIntent } from './pending-setup-intent.js'
import type { ResourcePorts } from './ports.js'

/**
 * Setup intents: plain create/retrieve/update/list; `confirm` succeeds with the payment method
 * given (a test token makes one), recording a mandate when an off-session setup carries the
 * customer's acceptance (`mandate_data`); `cancel` cancels.
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
    'setupIntents.confirm'(call, _next, { engine, ports }) {
      const r = engine.resource('setup_intent')
      const si = r.require(call.scope, call.path.intent ?? call.path.id ?? '')
      const given = call.params.payment_method ?? si.payment_method
      if (typeof given !== 'string') return r.set(call.scope, si.id, { status: 'requires_payment_method' }, call.origin)
      const customer = typeof si.customer === 'string' ? si.customer : undefined
      if (customer !== undefined) ports.paymentMethods.checkAttachable(call.scope, given, customer, 'payment_method')
      const pm = ports.paymentMethods.resolve(call.scope, given, 'payment_method')
      // A setup for later off-session payments with the customer's acceptance records a mandate.
      const mandateData = call.params.mandate_data
      const mandate =
        mandateData !== undefined && si.usage === 'off_session'
          ? createMandate(engine, call.scope, pm, mandateData, 'active').id
          : si.mandate
      // The provider saves the card to the setup intent's customer on success.
      if (customer !== undefined) ports.paymentMethods.attach(call.scope, pm.id, customer, call.origin)
      const succeeded = r.set(call.scope, si.id, { mandate, payment_method: pm.id, status: 'succeeded' }, call.origin)
      settlePendingSetupIntent(engine, call.scope, succeeded, call.origin)
      return succeeded
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
