import Stripe from 'stripe'

/**
 * The application's local copy of its customers, kept up to date by webhooks (the code under
 * test). Deliveries can repeat and arrive out of order, so the handler treats an event as a hint
 * and fetches the object's current state instead of applying the (possibly stale) snapshot.
 *
 * @example
 * const mirror = createCustomerMirror(stripe)
 * sim.receivers.mount(url, mirror.handler)
 */
export function createCustomerMirror(stripe: Stripe, options: { trustSnapshots?: boolean } = {}) {
  const customers = new Map<string, string | null>()
  return {
    customers,
    async handler(request: Request): Promise<Response> {
      const event = JSON.parse(await request.text()) as Stripe.Event
      const snapshot = event.data.object as Stripe.Customer
      if (options.trustSnapshots) {
        if (event.type === 'customer.deleted') customers.delete(snapshot.id)
        else customers.set(snapshot.id, snapshot.email)
        return new Response(null, { status: 204 })
      }
      try {
        const current = await stripe.customers.retrieve(snapshot.id)
        if (current.deleted) customers.delete(snapshot.id)
        else customers.set(current.id, current.email)
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 404) throw error
        customers.delete(snapshot.id)
      }
      return new Response(null, { status: 204 })
    },
  }
}
