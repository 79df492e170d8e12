import { ERRORS, errorMessage } from '#catalogue/errors.js'

type Draw = (prefix: string, n?: number) => string
type Base = { created: number; livemode: boolean; metadata: Record<string, never> }

/** What every fixture is made from: the event type, the id draw, the customer already drawn and the common fields. */
interface FixtureInput {
  readonly type: string
  readonly id: Draw
  readonly customer: string
  readonly base: Base
  readonly livemode: boolean
}

// The telling values of each resource the spec names; the engine's builder fills in the rest.
const FIXTURES: Readonly<Record<string, (f: FixtureInput) => Record<string, unknown>>> = {
  payment_intent: paymentIntent,
  payment_method: ({ id, customer, base }) => ({
    id: id('pm'),
    object: 'payment_method',
    type: 'card',
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
    customer,
    ...base,
  }),
  customer: ({ customer, base }) => ({
    id: customer,
    object: 'customer',
    email: 'jenny.rosen@example.com',
    name: 'Jenny Rosen',
    ...base,
  }),
  'customer.subscription': ({ id, customer, base }) => ({
    id: id('sub'),
    object: 'subscription',
    customer,
    status: 'active',
    items: { object: 'list', data: [], has_more: false },
    ...base,
  }),
  invoice: ({ type, id, customer, base }) => {
    const paid = type === 'invoice.paid'
    return {
      id: id('in'),
      object: 'invoice',
      customer,
      amount_due: 1500,
      amount_paid: paid ? 1500 : 0,
      currency: 'usd',
      status: paid ? 'paid' : 'draft',
      ...base,
    }
  },
  charge: ({ id, base }) => ({
    id: id('ch'),
    object: 'charge',
    amount: 2000,
    currency: 'usd',
    paid: true,
    status: 'succeeded',
    ...base,
  }),
  checkout_sessions: ({ id, livemode, base }) => ({
    id: id(livemode ? 'cs_live' : 'cs_test', 32),
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    amount_total: 2000,
    currency: 'usd',
    ...base,
  }),
  issuing_authorization: issuingAuthorization,
}

/**
 * The values a triggered snapshot event's object is built from: a fixture of the resource the type
 * names (a customer id is always drawn first, so the ids that follow do not depend on the type),
 * else a generic object with a note under the payload prefix.
 *
 * @example
 * fixture('invoice.paid', (p, n = 24) => kernel.ids.next(p, n), created, false, 'service')
 */
export function fixture(type: string, id: Draw, created: number, livemode: boolean, prefix: string): Record<string, unknown> {
  const resource = type.slice(0, type.lastIndexOf('.'))
  const customer = id('cus', 14)
  const base = { created, livemode, metadata: {} }
  const known = Object.hasOwn(FIXTURES, resource) ? FIXTURES[resource] : undefined
  if (known !== undefined) return known({ type, id, customer, base, livemode })
  return {
    id: id(resource.replace(/[^a-z]/g, '').slice(0, 6) || 'obj'),
    object: resource,
    [`${prefix}_note`]: 'triggered',
    ...base,
  }
}

function paymentIntent({ type, id, base }: FixtureInput): Record<string, unknown> {
  const failed = type === 'payment_intent.payment_failed'
  return {
    id: id('pi'),
    object: 'payment_intent',
    amount: 2000,
    amount_received: failed ? 0 : 2000,
    currency: 'usd',
    customer: null,
    payment_method: id('pm'),
    status: failed ? 'requires_payment_method' : 'succeeded',
    last_payment_error: failed
      ? {
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: errorMessage('card_declined'),
          type: ERRORS.card_declined.type,
        }
      : null,
    ...base,
  }
}

function issuingAuthorization({ id, base }: FixtureInput): Record<string, unknown> {
  return {
    id: id('iauth'),
    object: 'issuing.authorization',
    amount: 0,
    approved: false,
    currency: 'usd',
    status: 'pending',
    card: { id: id('ic'), object: 'issuing.card', last4: '0005' },
    merchant_data: { category: 'computer_software_stores', name: 'Rocket Rides', country: 'US' },
    pending_request: { amount: 1000, currency: 'usd', is_amount_controllable: false },
    ...base,
  }
}
