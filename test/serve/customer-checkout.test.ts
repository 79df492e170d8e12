import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'

let served: ServedCli
let stripe: Stripe
beforeAll(async () => {
  served = await startServeCli(['--header-prefix', 'Stripe', '--admin-token', 'none', '--no-limits'])
  stripe = new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http', maxNetworkRetries: 0 })
})
afterAll(async () => {
  await served.stop()
})

const complete = async (id: string, body: unknown = {}) => {
  const r = await fetch(`http://127.0.0.1:${served.port}/__sim/customer/checkout/${id}/complete`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: r.status, body: (await r.json()) as any }
}

async function paymentSession(): Promise<Stripe.Checkout.Session> {
  const product = await stripe.products.create({ name: 'Mug' })
  const price = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 1200 })
  return stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price: price.id }],
    success_url: 'https://shop.test/ok',
  })
}

describe('POST /__sim/customer/checkout/{id}/complete (serve)', () => {
  it('completes a session with a test card: the session the app retrieves is complete and paid', async () => {
    const session = await paymentSession()
    const done = await complete(session.id, { payment_method: 'pm_card_visa', email: 'app@example.com' })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body).toMatchObject({ id: session.id, status: 'complete', payment_status: 'paid' })
    const stored = await stripe.checkout.sessions.retrieve(session.id)
    expect(stored).toMatchObject({ status: 'complete', customer_details: { email: 'app@example.com' } })
    expect((await stripe.paymentIntents.retrieve(stored.payment_intent as string)).status).toBe('succeeded')
  })

  it("answers a declined card with the provider's 402 card_error and leaves the session open", async () => {
    const session = await paymentSession()
    const declined = await complete(session.id, { payment_method: 'pm_card_chargeDeclined' })
    expect(declined.status).toBe(402)
    expect(declined.body.error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' })
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
  })

  it('refuses a missing session (404), bad input (400) and a completed session (400)', async () => {
    expect((await complete('cs_test_nope')).status).toBe(404)
    const session = await paymentSession()
    expect((await complete(session.id, { payment_method: 7 })).status).toBe(400)
    expect((await complete(session.id, { colour: 'red' })).status).toBe(400)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
    expect((await complete(session.id)).status).toBe(200)
    const again = await complete(session.id)
    expect(again.status).toBe(400)
    expect(again.body.error.message).toMatch(/complete/)
  })

  it('answers 405 for another method on the route', async () => {
    const r = await fetch(`http://127.0.0.1:${served.port}/__sim/customer/checkout/cs_test_1/complete`)
    expect(r.status).toBe(405)
  })
})
