import type { ResourceDeclaration } from '../engine/declaration.js'

/** Checkout sessions (plain: `open` until something completes or expires them). */
export const checkoutSessions: ResourceDeclaration = {
  type: 'Checkout.Session',
  object: 'checkout.session',
  idPrefix: 'cs_test',
  idLength: 32,
  defaults: ({ id, created }) => ({
    expires_at: created + 24 * 60 * 60,
    payment_status: 'unpaid',
    status: 'open',
    url: `https://checkout.stripe.com/c/pay/${id}`,
  }),
}
