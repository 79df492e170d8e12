import type { ResourceDeclaration } from '../engine/declaration.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Refunds: `succeeded` at once; `payment_intent` is read through to its latest charge, and
 * `amount` defaults to that charge's amount (no ledger movement yet).
 */
export const refunds: ResourceDeclaration<ResourcePorts> = {
  type: 'Refund',
  object: 'refund',
  idPrefix: 're',
  defaults: () => ({ status: 'succeeded' }),
  behaviours: {
    'refunds.create'(call, next, { engine }) {
      const { charge, payment_intent: pi } = call.params
      const intent = typeof pi === 'string' ? engine.find(call.scope, pi) : undefined
      if (typeof pi === 'string' && intent === undefined) {
        throw invalidRequest(`No such payment_intent: '${pi}'`, { code: 'resource_missing', param: 'payment_intent' })
      }
      const chargeId = typeof charge === 'string' ? charge : intent?.latest_charge
      const found = typeof chargeId === 'string' ? engine.find(call.scope, chargeId) : undefined
      if (typeof charge === 'string' && found === undefined) {
        throw invalidRequest(`No such charge: '${charge}'`, { code: 'resource_missing', param: 'charge' })
      }
      if (found === undefined)
        throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', {
          param: 'charge',
        })
      return next({
        amount: found.amount,
        currency: found.currency,
        payment_intent: found.payment_intent ?? null,
        ...call.params,
        charge: found.id,
      })
    },
  },
}
