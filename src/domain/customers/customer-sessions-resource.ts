import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'

/** Minutes a customer session's client secret lasts (the provider's 30). */
const LIFETIME_SECONDS = 30 * 60

/**
 * Customer sessions: a client secret that lets a browser component (payment element, pricing
 * table, buy button, customer sheet) act for one customer of the account for 30 minutes. Answered,
 * never kept by id (a customer session has none); the components asked for are enabled, the rest
 * off. The customer must be the account's.
 *
 * @example
 * engine.run('customerSessions.create', { scope, origin, path: {}, params: { customer: 'cus_1', components: { pricing_table: { enabled: true } } } })
 * // { object: 'customer_session', client_secret: 'cuss_secret_…', customer: 'cus_1', expires_at: created + 1800, ... }
 */
export const customerSessions: ResourceDeclaration<ResourcePorts> = {
  type: 'CustomerSession',
  object: 'customer_session',
  idPrefix: 'cuss',
  ephemeral: true,
  defaults: ({ id, created }) => ({
    client_secret: `cuss_secret_${id.slice(5)}`,
    expires_at: created + LIFETIME_SECONDS,
  }),
  behaviours: {
    'customerSessions.create'(call, next, { engine }) {
      const customer = call.params.customer
      if (typeof customer !== 'string') throw tableError('parameter_missing', { param: 'customer' }, { param: 'customer' })
      engine.resource('customer').requireParam(call.scope, customer, 'customer')
      return next()
    },
  },
}
