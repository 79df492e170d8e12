import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { call } from '../cli/node-request.js'

const HOSTILE = `<script>alert("x")</script> & 'Mug' <img src=x onerror=alert(1)>`

describe("serve's checkout and portal pages, as a person reads them", () => {
  const sim = createSimulator({ seed: 27, headerPrefix: 'Stripe', limits: false })
  const token = 'checkout-page-suite'
  let server: SimServer
  let port = 0
  let stripe: Stripe
  const page = async (url: string) => {
    const answer = await call(port, new URL(url).pathname)
    expect(answer.status).toBe(200)
    return answer.body
  }
  const action = (path: string, body: unknown) =>
    call(port, `/__customer/actions/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  const admin = (path: string, body: unknown) =>
    call(port, `/__sim/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    })
  const product = async (name: string, unit_amount: number, currency = 'usd') => {
    const made = await stripe.products.create({ name })
    return stripe.prices.create({ product: made.id, unit_amount, currency })
  }

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: token })
    port = (server.address() as AddressInfo).port
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
  })
  afterAll(async () => {
    await new Promise((done) => server?.close(done))
  })

  it('lists each line item with its product name, quantity, unit price and amount, and the totals with discount and tax', async () => {
    const book = await product('Stubborn Attachments', 1500)
    const mug = await product('Mug', 900)
    const coupon = await stripe.coupons.create({ amount_off: 500, currency: 'usd', duration: 'once' })
    const vat = await stripe.taxRates.create({ display_name: 'VAT', percentage: 10, inclusive: false })
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        { price: book.id, quantity: 2, tax_rates: [vat.id] },
        { price: mug.id, quantity: 1, tax_rates: [vat.id] },
      ],
      discounts: [{ coupon: coupon.id }],
      success_url: 'https://shop.example/ok',
    })
    const body = await page(session.url as string)
    const rows = [...body.matchAll(/<tr class="line-item"[^>]*>(.*?)<\/tr>/g)].map((m) =>
      [...(m[1] as string).matchAll(/<td class="(\w+)">(.*?)<\/td>/g)].map((c) => `${c[1]}=${c[2]}`).join(' '),
    )
    expect(rows).toEqual([
      'name=Stubborn Attachments quantity=2 unit=15.00 USD amount=30.00 USD',
      'name=Mug quantity=1 unit=9.00 USD amount=9.00 USD',
    ])
    const total = session.amount_total as number
    const tax = session.total_details?.amount_tax as number
    expect(tax).toBeGreaterThan(0)
    expect(body).toContain('<dd id="subtotal">39.00 USD</dd>')
    expect(body).toContain('<dd id="discount">-5.00 USD</dd>')
    expect(body).toContain(`<dd id="tax">${(tax / 100).toFixed(2)} USD</dd>`)
    expect(body).toContain(`<dd id="amount">${(total / 100).toFixed(2)} USD</dd>`)
    expect(total).toBe(3900 - 500 + tax)
  })

  it("prefills the email with customer_email or the customer's email, and leaves it empty for a guest", async () => {
    const price = await product('Mug', 900)
    const line_items = [{ price: price.id, quantity: 1 }]
    const given = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items,
      customer_email: 'jenny@example.com',
      success_url: 'https://shop.example/ok',
    })
    expect(await page(given.url as string)).toMatch(/<input id="email"[^>]* value="jenny@example.com" readonly>/)
    const customer = await stripe.customers.create({ email: 'known@example.com' })
    const known = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items,
      customer: customer.id,
      success_url: 'https://shop.example/ok',
    })
    expect(await page(known.url as string)).toMatch(/<input id="email"[^>]* value="known@example.com" readonly>/)
    const guest = await stripe.checkout.sessions.create({ mode: 'payment', line_items, success_url: 'https://shop.example/ok' })
    expect(await page(guest.url as string)).toMatch(/<input id="email" name="email" type="email" autocomplete="email">/)
    // The email the guest types reaches the completed session.
    const done = await action(`checkout/${guest.id}/complete`, { payment_method: 'pm_card_visa', email: 'typed@example.com' })
    expect(JSON.parse(done.body).customer_details).toMatchObject({ email: 'typed@example.com' })
  })

  it('escapes a hostile product name on the checkout page and the portal', async () => {
    const price = await product(HOSTILE, 700)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://shop.example/ok',
    })
    const body = await page(session.url as string)
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Mug&#39; &lt;img src=x onerror=alert(1)&gt;'
    expect(body).toContain(`<td class="name">${escaped}</td>`)
    expect(body).not.toContain('<img src=x')
    expect(body).not.toContain('<script>alert')

    const plan = await stripe.prices.create({
      product: price.product as string,
      unit_amount: 500,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: plan.id }] })
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id })
    const portalBody = await page(portal.url)
    expect(portalBody).toContain(`<span class="product">${escaped}</span>`)
    expect(portalBody).not.toContain('<img src=x')
  })

  it("names the portal's products and prices, in the list and in the plan choices, rather than price ids", async () => {
    const basic = await stripe.products.create({ name: 'Basic' })
    const pro = await stripe.products.create({ name: 'Pro' })
    const monthly = await stripe.prices.create({
      product: basic.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const yearly = await stripe.prices.create({
      product: pro.id,
      unit_amount: 20000,
      currency: 'usd',
      recurring: { interval: 'year' },
    })
    const config = await stripe.billingPortal.configurations.create({
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          products: [
            { product: basic.id, prices: [monthly.id] },
            { product: pro.id, prices: [yearly.id] },
          ],
        },
      },
    })
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id, quantity: 2 }] })
    const cancelAt = Math.floor(sim.clock.now / 1000) + 10 * 86_400
    await stripe.subscriptions.update(sub.id, { cancel_at: cancelAt })
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id })
    const body = await page(portal.url)
    expect(body).toContain(`(cancels on ${new Date(cancelAt * 1000).toISOString().slice(0, 10)})`)
    expect(body).toContain(
      '<span class="product">Basic</span> <span class="price">9.00 USD / month</span> × <span class="quantity">2</span>',
    )
    expect(body).toContain(`<option value="${yearly.id}">Pro (200.00 USD / year)</option>`)
    expect(body).toContain(`<option value="${monthly.id}" selected>Basic (9.00 USD / month)</option>`)
    expect(body.replaceAll(/(value|data-price|data-price-of)="[^"]*"/g, '')).not.toContain('price_')
  })

  it("answers a declined card on the checkout page with the provider's 402 and its message, the session open", async () => {
    const price = await product('Mug', 900)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://shop.example/ok',
    })
    const declined = await action(`checkout/${session.id}/complete`, {
      payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
    })
    expect(declined.status).toBe(402)
    expect(JSON.parse(declined.body).error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    })
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
    // The page shows such an answer as the provider words it, with its code.
    expect(await page(session.url as string)).toContain(
      'function declined(error) { say(error.message, error.decline_code || error.code) }',
    )
  })

  it('keeps a SEPA debit from the delayed test IBAN processing after the success page loads, until the admin API moves the clock three minutes', async () => {
    const price = await product('Espresso machine', 25000, 'eur')
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      customer_email: 'pending@example.com',
      success_url: 'https://shop.example/pending?session_id={CHECKOUT_SESSION_ID}',
    })
    const body = await page(session.url as string)
    expect(body).toContain('value="pm_sepaDebit_successDelayed_at"')
    expect(body).not.toContain('value="pm_usBankAccount"')
    const done = await action(`checkout/${session.id}/complete`, { payment_method: 'pm_sepaDebit_successDelayed_at' })
    expect(JSON.parse(done.body)).toMatchObject({ status: 'complete', payment_status: 'unpaid' })
    // What the app's success page reads when it loads: still pending.
    const loaded = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] })
    expect(loaded.payment_status).toBe('unpaid')
    expect((loaded.payment_intent as Stripe.PaymentIntent).status).toBe('processing')
    expect((await admin('clock/advance', { duration: '2m' })).status).toBe(200)
    expect((await stripe.paymentIntents.retrieve((loaded.payment_intent as Stripe.PaymentIntent).id)).status).toBe('processing')
    expect((await admin('clock/advance', { duration: '1m' })).status).toBe(200)
    const settled = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] })
    expect(settled.payment_status).toBe('paid')
    expect((settled.payment_intent as Stripe.PaymentIntent).status).toBe('succeeded')
    const succeeded = sim.admin.events({ type: 'checkout.session.async_payment_succeeded' })
    expect(succeeded.map((e) => (e.body.data as { object: { id: string } }).object.id)).toContain(session.id)
  })
})
