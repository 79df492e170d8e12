import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { call } from '../cli/node-request.js'

describe("serve's customer pages, actions and browser library", () => {
  const sim = createSimulator({ seed: 26, headerPrefix: 'Stripe' })
  let server: SimServer
  let port = 0
  let serve = ''
  let stripe: Stripe
  const token = 'customer-pages-suite'
  const action = (path: string, body: unknown) =>
    call(port, `/__customer/actions/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: token })
    port = (server.address() as AddressInfo).port
    serve = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
  })
  afterAll(async () => {
    await new Promise((done) => server?.close(done))
  })

  it('serves the browser-library stand-in as JavaScript at /v3/stripe.js', async () => {
    const a = await call(port, '/v3/stripe.js')
    expect(a.status).toBe(200)
    expect(a.headers['content-type']).toMatch(/^application\/javascript/)
    expect(a.body).toContain('window.Stripe = Stripe')
  })

  it('answers a preflight from a page on an allowed host, and none for the admin API', async () => {
    const headers = {
      Origin: 'http://127.0.0.1:5173',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    }
    const api = await call(port, '/v1/payment_intents/pi_1/confirm', { method: 'OPTIONS', headers })
    expect(api.status).toBe(204)
    expect(api.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173')
    expect(api.headers['access-control-allow-headers']).toBe('authorization, content-type')
    const admin = await call(port, '/__sim/state', { method: 'OPTIONS', headers })
    expect(admin.headers['access-control-allow-origin']).toBeUndefined()
    const foreign = await call(port, '/v1/payment_intents/pi_1/confirm', {
      method: 'OPTIONS',
      headers: { ...headers, Origin: 'https://evil.example' },
    })
    expect(foreign.status).toBe(403)
  })

  it("rewrites a portal session's url to serve's portal page, where the customer cancels", async () => {
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    const product = await stripe.products.create({ name: 'Plan' })
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const session = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'https://shop.example/account',
    })
    expect(session.url.startsWith(`${serve}/__customer/portal/test_`)).toBe(true)
    const pagePath = new URL(session.url).pathname
    const pageAnswer = await call(port, pagePath)
    expect(pageAnswer.status).toBe(200)
    expect(pageAnswer.body).toContain(`data-cancel="${sub.id}"`)
    const cancelled = await action('portal/cancel_subscription', { session: session.id, subscription: sub.id })
    expect(cancelled.status).toBe(200)
    expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true)
    // The stored session keeps the provider's URL: only serve's answer names its own pages.
    expect(sim.service.engine.find({ account: sim.platform.id, mode: 'test' }, session.id)?.url).toMatch(
      /^https:\/\/billing\.stripe\.com\//,
    )
  })

  it('sends a payment link visitor to the checkout page of a new session', async () => {
    const product = await stripe.products.create({ name: 'Mug' })
    const price = await stripe.prices.create({ product: product.id, unit_amount: 1200, currency: 'usd' })
    const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 1 }] })
    expect(link.url.startsWith(`${serve}/__customer/pay/`)).toBe(true)
    const visit = await call(port, new URL(link.url).pathname)
    expect(visit.status).toBe(303)
    const location = String(visit.headers.location)
    expect(location).toMatch(/^\/__customer\/checkout\/cs_/)
    const checkout = await call(port, location)
    expect(checkout.status).toBe(200)
    expect(checkout.body).toContain('id="pay"')
  })

  it('answers the 3-D Secure redirect page and returns to the return_url after a failed challenge', async () => {
    const pi = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
      return_url: 'https://shop.example/done',
    })
    const url = pi.next_action?.redirect_to_url?.url as string
    expect(url.startsWith(`${serve}/__customer/authenticate/`)).toBe(true)
    const pageAnswer = await call(port, new URL(url).pathname + new URL(url).search)
    expect(pageAnswer.status).toBe(200)
    expect(pageAnswer.body).toContain('https://shop.example/done')
    const failed = await action('authenticate', { payment_intent: pi.id, outcome: 'fail' })
    expect(JSON.parse(failed.body).status).toBe('requires_payment_method')
  })

  it("redirects a setup intent's 3-D Secure step with a return_url to serve's page, which completes it", async () => {
    const si = await stripe.setupIntents.create({
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
      return_url: 'https://shop.example/saved',
    })
    expect(si).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url' } })
    const url = si.next_action?.redirect_to_url?.url as string
    expect(url.startsWith(`${serve}/__customer/authenticate/`)).toBe(true)
    expect(new URL(url).searchParams.get('setup_intent')).toBe(si.id)
    const pageAnswer = await call(port, new URL(url).pathname + new URL(url).search)
    expect(pageAnswer.status).toBe(200)
    expect(pageAnswer.body).toContain('Save this card')
    expect(pageAnswer.body).toContain('https://shop.example/saved')
    const done = await action('authenticate', { setup_intent: si.id, outcome: 'complete' })
    expect(JSON.parse(done.body)).toMatchObject({ id: si.id, status: 'succeeded', next_action: null })
  })

  it("ends a setup intent's 3-D Secure challenge through the page actions, and refuses a body naming no intent", async () => {
    const si = await stripe.setupIntents.create({ payment_method: 'pm_card_threeDSecure2Required', confirm: true })
    expect(si.status).toBe('requires_action')
    expect((await action('authenticate', { outcome: 'complete' })).status).toBe(400)
    const done = await action('authenticate', { setup_intent: si.id, outcome: 'complete' })
    expect(JSON.parse(done.body)).toMatchObject({ id: si.id, status: 'succeeded' })
  })

  it('offers the test bank accounts and marks the 3-D Secure cards on a payment-mode checkout page', async () => {
    const product = await stripe.products.create({ name: 'Mug' })
    const price = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 900 })
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id }],
      success_url: 'https://shop.example/ok',
    })
    const page = await call(port, new URL(session.url as string).pathname)
    expect(page.body).toContain('value="pm_usBankAccount_accountClosed"')
    expect(page.body).toMatch(/value="pm_card_threeDSecure2Required" data-challenge/)
    const paid = await action(`checkout/${session.id}/complete`, { payment_method: 'pm_usBankAccount_accountClosed' })
    expect(JSON.parse(paid.body)).toMatchObject({ status: 'complete', payment_status: 'unpaid' })
    const events = sim.admin.events({ type: 'checkout.session.async_payment_failed' })
    expect(events.map((e) => (e.body as { data: { object: { id: string } } }).data.object.id)).toContain(session.id)
  })

  it('reaches only the customer routes through the page actions, and answers unknown pages 404', async () => {
    expect((await action('../reset', {})).status).toBe(404)
    expect((await call(port, '/__customer/invoice/acct_x/test_in_missing')).status).toBe(404)
    expect((await call(port, '/__customer/nothing')).status).toBe(404)
    const refused = await action('invoices/pay', { invoice: 'in_missing', payment_method: 'pm_card_visa' })
    expect(refused.status).toBe(404)
    // The admin API itself still needs its token.
    const admin = await call(port, '/__sim/customer/authenticate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"payment_intent":"pi_1","outcome":"fail"}',
    })
    expect(admin.status).toBe(401)
  })
})
