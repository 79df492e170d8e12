import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest, tableError } from '../service-error.js'
import { testCard } from './payment-method.js'
import { bankAccountFields, sepaDebitFields } from './payment-method-bank.js'
import { paymentMethodCard } from './payment-method-card.js'
import { clockMonth } from './tokens-resource.js'

/**
 * Payment methods: made by `paymentMethods.create` (a card from details or a token, checked as the
 * provider checks cards; other types from their params), and from test tokens (`pm_card_visa`)
 * where a request names one (`ports.paymentMethods.resolve`); retrieve, list and update are the
 * engine's (a customer's list is its attached ones; update takes `billing_details`, `metadata`,
 * `allow_redisplay` and the card's expiry, of a payment method saved to a customer, with
 * `payment_method.updated`). Attach and detach move a payment method to and from a customer with
 * `payment_method.attached` / `payment_method.detached`.
 *
 * @example
 * await stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_visa' } })
 */
export const paymentMethods: ResourceDeclaration<ResourcePorts> = {
  type: 'PaymentMethod',
  object: 'payment_method',
  idPrefix: 'pm',
  only: ['create', 'retrieve', 'update', 'list'],
  // A request may name a test token (`pm_card_visa`, `tok_visa`) where it names a payment method:
  // the behaviour makes the payment method from its test card, so no stored object is needed.
  tokens: (id) => testCard(id) !== undefined,
  behaviours: {
    'paymentMethods.create'(call, next, { engine }) {
      const p = call.params
      const type = p.type ?? (p.card === undefined ? undefined : 'card')
      if (type === undefined) throw tableError('parameter_missing', { param: 'type' }, { param: 'type' })
      if (type === 'us_bank_account') return next({ ...p, us_bank_account: undefined }, bankAccountFields(p))
      if (type === 'sepa_debit') return next({ ...p, sepa_debit: undefined }, sepaDebitFields(p))
      if (type !== 'card') return next({ ...p, type })
      const make = paymentMethodCard(engine, call.scope, p.card)
      const { card, used } = make()
      if (used !== undefined) engine.resource('token').put(call.scope, used, { used: true })
      return next({ ...p, card: undefined, type }, (created) => ({ ...card(created.id), type: 'card' }))
    },
    'paymentMethods.update'(call, next, { engine }) {
      const r = engine.resource('payment_method')
      const pm = r.require(call.scope, call.path.id ?? '')
      if (pm.customer === null || pm.customer === undefined) throw tableError('payment_method_update_unattached')
      const given = call.params.card as { exp_month?: number; exp_year?: number } | undefined
      if (given === undefined) return next()
      const held = pm.card as { exp_month: number; exp_year: number } | null
      const month = given.exp_month ?? held?.exp_month ?? 0
      const year = given.exp_year ?? held?.exp_year ?? 0
      const now = clockMonth(engine)
      if (!Number.isInteger(month) || month < 1 || month > 12) {
        throw tableError('invalid_expiry_month', {}, { param: 'card[exp_month]' })
      }
      if (year < now.year || (year === now.year && month < now.month)) {
        throw tableError('invalid_expiry_year', {}, { param: 'card[exp_year]' })
      }
      return r.update(call.scope, pm.id, { ...call.params, card: undefined }, call.origin, (o) => ({
        card: { ...(o.card as Record<string, unknown>), exp_month: month, exp_year: year },
      }))
    },
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
