/**
 * What each trigger recipe's event says of its object, read back through the API: the collection
 * path of each object type, and the state each event type says its object is in. Shared by the
 * in-process and the serve trigger tests.
 */
export const COLLECTIONS: Record<string, string> = {
  payment_intent: 'payment_intents',
  charge: 'charges',
  customer: 'customers',
  subscription: 'subscriptions',
  invoice: 'invoices',
  product: 'products',
  price: 'prices',
  'checkout.session': 'checkout/sessions',
}

/** The state each event says its object is in. */
export const EXPECTED: Record<string, Record<string, unknown>> = {
  'payment_intent.created': { status: 'requires_confirmation' },
  'payment_intent.succeeded': { status: 'succeeded', amount_received: 2000 },
  'payment_intent.payment_failed': { status: 'requires_payment_method' },
  'payment_intent.canceled': { status: 'canceled' },
  'charge.succeeded': { status: 'succeeded', paid: true },
  'charge.failed': { status: 'failed' },
  'charge.refunded': { refunded: true },
  'invoice.created': { status: 'draft' },
  'invoice.finalized': { status: 'open' },
  'invoice.paid': { status: 'paid', amount_paid: 2000 },
  'invoice.payment_succeeded': { status: 'paid' },
  'customer.subscription.created': { status: 'active' },
  'customer.subscription.updated': { status: 'active', metadata: { foo: 'bar' } },
  'customer.subscription.deleted': { status: 'canceled' },
  'customer.updated': { metadata: { foo: 'bar' } },
  'customer.deleted': { deleted: true },
  'checkout.session.completed': { status: 'complete', payment_status: 'paid', mode: 'payment' },
  'checkout.session.async_payment_succeeded': { status: 'complete', payment_status: 'paid' },
  'checkout.session.async_payment_failed': { status: 'complete', payment_status: 'unpaid' },
  'checkout.session.expired': { status: 'expired' },
}
