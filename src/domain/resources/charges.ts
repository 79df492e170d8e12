import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Charges: made by the card attempts of payment intents and off-session payments
 * (`ports.charges.attempt`), never by a request, so `create` is not served; retrieve, update, list
 * and search are the engine's. A charge carries its refunds (`refunds`, newest first) and the
 * amounts and balance transaction its capture and refunds set. Capturing an uncaptured charge
 * captures its payment intent, as the provider does.
 */
export const charges: ResourceDeclaration<ResourcePorts> = {
  type: 'Charge',
  object: 'charge',
  idPrefix: 'ch',
  only: ['retrieve', 'update', 'list', 'search'],
  behaviours: {
    'charges.capture'(call, _next, { engine }) {
      const r = engine.resource('charge')
      const charge = r.require(call.scope, call.path.id ?? '')
      const intent = charge.payment_intent
      if (charge.captured === true || charge.status !== 'succeeded' || typeof intent !== 'string') {
        throw invalidRequest(errorMessage('charge_already_captured', { charge: charge.id }), { code: 'charge_already_captured' })
      }
      const amount = call.params.amount
      engine.run('paymentIntents.capture', {
        ...call,
        path: { id: intent },
        params: amount === undefined ? {} : { amount_to_capture: amount },
      })
      return r.require(call.scope, charge.id)
    },
  },
}
