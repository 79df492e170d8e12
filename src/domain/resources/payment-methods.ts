import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import { testCard } from '../payment-intents/payment-method.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Card payment methods: made from test tokens (`pm_card_visa`) where a request names one
 * (`ports.paymentMethods.resolve`), so `create` is not served; retrieve, update and the lists are
 * the engine's (a customer's list is its attached ones). Attach and detach move a payment method
 * to and from a customer with `payment_method.attached` / `payment_method.detached`.
 */
export const paymentMethods: ResourceDeclaration<ResourcePorts> = {
  type: 'PaymentMethod',
  object: 'payment_method',
  idPrefix: 'pm',
  only: ['retrieve', 'update', 'list'],
  // A request may name a test token (`pm_card_visa`, `tok_visa`) where it names a payment method:
  // the behaviour makes the payment method from its test card, so no stored object is needed.
  tokens: (id) => testCard(id) !== undefined,
  behaviours: {
    'paymentMethods.list'(call, next, { engine }) {
      const customer = call.params.customer
      if (typeof customer === 'string') engine.resource('customer').requireParam(call.scope, customer, 'customer')
      return next()
    },
    'customers.listPaymentMethods'(call, next, { engine }) {
      engine.resource('customer').require(call.scope, call.path.id ?? '')
      return next()
    },
    'paymentMethods.attach'(call, _next, { engine, ports }) {
      const value = call.path.id ?? ''
      const customer = call.params.customer
      // A test token (`pm_card_visa`) makes a new payment method from its test card and attaches
      // that, as the provider's test mode does; an id must exist.
      const token = testCard(value) !== undefined
      if (!token) engine.resource('payment_method').require(call.scope, value)
      if (typeof customer !== 'string') {
        throw invalidRequest(errorMessage('parameter_missing', { param: 'customer' }), {
          code: 'parameter_missing',
          param: 'customer',
        })
      }
      engine.resource('customer').requireParam(call.scope, customer, 'customer')
      ports.paymentMethods.checkAttachable(call.scope, value, customer, 'customer')
      const id = token ? ports.paymentMethods.resolve(call.scope, value, 'payment_method').id : value
      return ports.paymentMethods.attach(call.scope, id, customer, call.origin)
    },
    'paymentMethods.detach'(call, _next, { ports }) {
      // An unknown id answers `resource_missing` from `detach` itself.
      return ports.paymentMethods.detach(call.scope, call.path.id ?? '', call.origin)
    },
  },
}
