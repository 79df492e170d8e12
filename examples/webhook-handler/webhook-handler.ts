import Stripe from 'stripe'

/**
 * The application's webhook endpoint (the code under test), as a fetch-style handler: it verifies
 * the signature on the raw body, acknowledges duplicates without reprocessing them (deliveries can
 * repeat), and answers 2xx only after the event is recorded.
 *
 * @example
 * const handler = createWebhookHandler({ secret, store, now: () => Date.now() })
 * const res = await handler(request)
 */
export interface ProcessedStore {
  has(eventId: string): boolean
  record(event: Stripe.Event): void
}

export function createWebhookHandler(options: {
  secret: string
  store: ProcessedStore
  /** Current time in ms, for the signature's 5-minute tolerance. */
  now?: () => number
}): (request: Request) => Promise<Response> {
  const stripe = new Stripe('sk_test_unused')
  return async (request) => {
    const raw = await request.text()
    let event: Stripe.Event
    try {
      event = stripe.webhooks.constructEvent(
        raw,
        request.headers.get('Stripe-Signature') ?? '',
        options.secret,
        300,
        undefined,
        options.now?.(),
      )
    } catch {
      return new Response('bad signature', { status: 400 })
    }
    if (!options.store.has(event.id)) options.store.record(event)
    return new Response(null, { status: 204 })
  }
}
