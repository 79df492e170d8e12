// biome-ignore-all lint/suspicious/noTemplateCurlyInString: fixture references are written literally
import type { FixtureFile, FixtureRequest } from './fixtures.js'

const card = (pm: string) => ({
  amount: 2000,
  currency: 'usd',
  payment_method: pm,
  automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
})

const customerWithCard: FixtureRequest = {
  name: 'customer',
  path: '/v1/customers',
  method: 'post',
  params: {
    description: '(created by service-sim trigger)',
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  },
}

const succeededPayment: FixtureRequest[] = [
  { name: 'payment_intent', path: '/v1/payment_intents', method: 'post', params: { ...card('pm_card_visa'), confirm: true } },
]

const declinedPayment: FixtureRequest[] = [
  { name: 'payment_intent', path: '/v1/payment_intents', method: 'post', params: card('pm_card_chargeDeclined') },
  {
    name: 'confirm',
    path: '/v1/payment_intents/${payment_intent:id}/confirm',
    method: 'post',
    expected_error_type: 'card_error',
  },
]

const paidInvoice: FixtureRequest[] = [
  customerWithCard,
  {
    name: 'invoice_item',
    path: '/v1/invoiceitems',
    method: 'post',
    params: { customer: '${customer:id}', amount: 2000, currency: 'usd', description: '(created by service-sim trigger)' },
  },
  {
    name: 'invoice',
    path: '/v1/invoices',
    method: 'post',
    params: { customer: '${customer:id}', pending_invoice_items_behavior: 'include' },
  },
  { name: 'finalized', path: '/v1/invoices/${invoice:id}/finalize', method: 'post' },
  { name: 'paid', path: '/v1/invoices/${invoice:id}/pay', method: 'post' },
]

const subscription: FixtureRequest[] = [
  customerWithCard,
  { name: 'product', path: '/v1/products', method: 'post', params: { name: 'myproduct' } },
  {
    name: 'price',
    path: '/v1/prices',
    method: 'post',
    params: { product: '${product:id}', currency: 'usd', unit_amount: 1500, recurring: { interval: 'month' } },
  },
  {
    name: 'subscription',
    path: '/v1/subscriptions',
    method: 'post',
    params: { customer: '${customer:id}', items: [{ price: '${price:id}' }] },
  },
]

const checkoutSession: FixtureRequest[] = [
  ...subscription.slice(1, 2),
  {
    name: 'price',
    path: '/v1/prices',
    method: 'post',
    params: { product: '${product:id}', currency: 'usd', unit_amount: 3000 },
  },
  {
    name: 'checkout_session',
    path: '/v1/checkout/sessions',
    method: 'post',
    params: {
      mode: 'payment',
      line_items: [{ price: '${price:id}', quantity: 1 }],
      success_url: 'https://httpbin.org/post',
      cancel_url: 'https://httpbin.org/post',
    },
  },
]

const RECIPES: Readonly<Record<string, readonly FixtureRequest[]>> = {
  'checkout.session.completed': checkoutSession,
  'checkout.session.async_payment_succeeded': checkoutSession,
  'checkout.session.async_payment_failed': checkoutSession,
  'checkout.session.expired': [
    ...checkoutSession,
    { name: 'expired', path: '/v1/checkout/sessions/${checkout_session:id}/expire', method: 'post' },
  ],
  'customer.created': [customerWithCard],
  'customer.updated': [
    customerWithCard,
    { name: 'updated', path: '/v1/customers/${customer:id}', method: 'post', params: { metadata: { foo: 'bar' } } },
  ],
  'customer.deleted': [customerWithCard, { name: 'deleted', path: '/v1/customers/${customer:id}', method: 'delete' }],
  'product.created': [{ name: 'product', path: '/v1/products', method: 'post', params: { name: 'myproduct' } }],
  'price.created': subscription.slice(1, 3),
  'payment_intent.created': [
    { name: 'payment_intent', path: '/v1/payment_intents', method: 'post', params: card('pm_card_visa') },
  ],
  'payment_intent.succeeded': succeededPayment,
  'payment_intent.payment_failed': declinedPayment,
  'payment_intent.canceled': [
    { name: 'payment_intent', path: '/v1/payment_intents', method: 'post', params: card('pm_card_visa') },
    { name: 'canceled', path: '/v1/payment_intents/${payment_intent:id}/cancel', method: 'post' },
  ],
  'charge.succeeded': succeededPayment,
  'charge.failed': declinedPayment,
  'charge.refunded': [
    ...succeededPayment,
    { name: 'refund', path: '/v1/refunds', method: 'post', params: { payment_intent: '${payment_intent:id}' } },
  ],
  'invoice.created': paidInvoice.slice(0, 3),
  'invoice.finalized': paidInvoice.slice(0, 4),
  'invoice.paid': paidInvoice,
  'invoice.payment_succeeded': paidInvoice,
  'customer.subscription.created': subscription,
  'customer.subscription.updated': [
    ...subscription,
    { name: 'updated', path: '/v1/subscriptions/${subscription:id}', method: 'post', params: { metadata: { foo: 'bar' } } },
  ],
  'customer.subscription.deleted': [
    ...subscription,
    { name: 'deleted', path: '/v1/subscriptions/${subscription:id}', method: 'delete' },
  ],
}

/**
 * Event types a trigger causes by completing the checkout session its recipe made, as the
 * customer's browser would (`sim.customer.completeCheckout`), with this payment method.
 *
 * @example
 * CHECKOUT_COMPLETIONS['checkout.session.completed'] // 'pm_card_visa'
 */
export const CHECKOUT_COMPLETIONS: Readonly<Record<string, string>> = {
  'checkout.session.completed': 'pm_card_visa',
  'checkout.session.async_payment_succeeded': 'pm_usBankAccount',
  'checkout.session.async_payment_failed': 'pm_usBankAccount_accountClosed',
}

/**
 * The API calls that cause an event of `type`, as the provider CLI's triggers make them (a
 * fixture file run through the API, so the event names a stored object in the state it says), or
 * undefined when there is no recipe.
 *
 * @example
 * triggerRecipe('payment_intent.succeeded')?.fixtures[0]?.path // '/v1/payment_intents'
 */
export function triggerRecipe(type: string): FixtureFile | undefined {
  const fixtures = RECIPES[type]
  return fixtures === undefined ? undefined : { _meta: { template_version: 0 }, fixtures }
}

/**
 * Every event type with a recipe.
 *
 * @example
 * triggerTypes().includes('invoice.paid') // true
 */
export function triggerTypes(): string[] {
  return Object.keys(RECIPES).sort()
}
