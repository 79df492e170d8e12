import { Hono } from 'hono'
import type { FulfilmentEnv } from 'service-sim/harness'
import Stripe from 'stripe'

const paid = (s: Stripe.Checkout.Session) =>
  s.status === 'complete' && (s.payment_status === 'paid' || s.payment_status === 'no_payment_required')

/**
 * A Hono shop that fulfils Checkout orders: from `checkout.session.completed` when it shows the
 * session paid, from `checkout.session.async_payment_succeeded`, or from the success page when a
 * read of the session finds it paid; each session once, by an atomic insert into the shop's
 * database (`env.store`, which a redeploy keeps). `dedupe: false` is the classic mistake: every
 * paid delivery and every visit of the page ships again.
 */
export function honoShop(env: FulfilmentEnv, options: { dedupe?: boolean } = {}): Hono {
  const stripe = new Stripe(env.secretKey, { httpClient: Stripe.createFetchHttpClient(env.fetch), maxNetworkRetries: 0 })
  const dedupe = options.dedupe ?? true
  async function fulfilOnce(session: string, source: string): Promise<void> {
    if (dedupe && (await env.store.update(`fulfilled:${session}`, (p) => p ?? source)) !== undefined) return
    env.orders.fulfil(session, source)
  }
  const app = new Hono()
  app.post('/webhook', async (c) => {
    const raw = await c.req.text()
    let event: Stripe.Event | undefined
    for (const secret of env.secrets()) {
      try {
        event = stripe.webhooks.constructEvent(raw, c.req.header('stripe-signature') ?? '', secret, 300, undefined, env.clock.now)
        break
      } catch {
        // Try the next secret.
      }
    }
    if (event === undefined) return c.text('bad signature', 400)
    if (event.type === 'checkout.session.completed' && paid(event.data.object)) await fulfilOnce(event.data.object.id, event.id)
    if (event.type === 'checkout.session.async_payment_succeeded') await fulfilOnce(event.data.object.id, event.id)
    return c.text('ok')
  })
  app.get('/success', async (c) => {
    const id = c.req.query('session_id')
    if (id === undefined) return c.text('no session', 400)
    let session: Stripe.Checkout.Session
    try {
      session = await stripe.checkout.sessions.retrieve(id)
    } catch {
      return c.text('try again', 503)
    }
    if (!paid(session)) return c.text('payment processing')
    await fulfilOnce(session.id, 'success_page')
    return c.text('thanks')
  })
  return app
}
