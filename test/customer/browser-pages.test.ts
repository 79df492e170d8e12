import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'

const CHROMIUM = '/usr/bin/chromium'
const ADMIN = 'browser-pages-suite'

/** The shop's page after checkout: what its backend reads of the session's payment. */
const resultPage = (state: string) =>
  `<!doctype html><html><body><p id="state">${state}</p><a id="again" href="">Check again</a></body></html>`

describe("a person reading serve's checkout and portal pages in a real browser", () => {
  // A manual clock: only the admin API moves it, as a test of a "payment pending" page needs.
  const sim = createSimulator({ seed: 28, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let serve = ''
  let shop: Server
  let shopUrl = ''
  let stripe: Stripe

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: ADMIN })
    const port = (server.address() as AddressInfo).port
    serve = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    // The shop's success page asks its backend how the session's payment stands, as an app's
    // "thanks, your payment is pending" page does.
    shop = createServer((req, res) => {
      const id = new URL(req.url ?? '/', 'http://shop').searchParams.get('session_id') ?? ''
      stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent'] }).then(
        (session) => {
          const intent = session.payment_intent as Stripe.PaymentIntent | null
          const state =
            session.payment_status === 'paid' ? 'Paid' : intent?.status === 'processing' ? 'Payment pending' : 'Unpaid'
          res.writeHead(200, { 'Content-Type': 'text/html' }).end(resultPage(state))
        },
        (error: Error) => res.writeHead(500).end(error.message),
      )
    })
    await new Promise<void>((ready) => shop.listen(0, '127.0.0.1', ready))
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise((done) => shop?.close(done))
    await new Promise((done) => server?.close(done))
  })

  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'reads the line items, pays by a delayed SEPA debit that is pending on the success page, then paid once the clock moves; reads the portal',
    async () => {
      const machine = await stripe.products.create({ name: 'Espresso machine' })
      const beans = await stripe.products.create({ name: 'Coffee beans' })
      const machinePrice = await stripe.prices.create({ product: machine.id, unit_amount: 25000, currency: 'eur' })
      const beansPrice = await stripe.prices.create({ product: beans.id, unit_amount: 1200, currency: 'eur' })
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          { price: machinePrice.id, quantity: 1 },
          { price: beansPrice.id, quantity: 3 },
        ],
        customer_email: 'barista@example.com',
        success_url: `${shopUrl}/done?session_id={CHECKOUT_SESSION_ID}`,
      })
      const customer = await stripe.customers.create({
        payment_method: 'pm_card_visa',
        invoice_settings: { default_payment_method: 'pm_card_visa' },
      })
      const plan = await stripe.prices.create({
        product: beans.id,
        unit_amount: 1100,
        currency: 'eur',
        recurring: { interval: 'month' },
      })
      await stripe.subscriptions.create({ customer: customer.id, items: [{ price: plan.id, quantity: 2 }] })
      const portal = await stripe.billingPortal.sessions.create({ customer: customer.id })

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage()
        await page.goto(session.url as string)
        const lines = await page.$$eval('#line-items tr.line-item', (rows) =>
          rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
        )
        expect(lines).toEqual([
          ['Espresso machine', '1', '250.00 EUR', '250.00 EUR'],
          ['Coffee beans', '3', '12.00 EUR', '36.00 EUR'],
        ])
        expect(await page.textContent('#amount')).toBe('286.00 EUR')
        expect(await page.inputValue('#email')).toBe('barista@example.com')

        await page.check('input[value="pm_sepaDebit_successDelayed_at"]')
        await Promise.all([page.waitForURL(/\/done\?session_id=/), page.click('#pay')])
        expect(await page.textContent('#state')).toBe('Payment pending')

        // The documented action: the admin API moves the clock past the debit's three minutes.
        const advanced = await fetch(`${serve}/__sim/clock/advance`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN}` },
          body: JSON.stringify({ duration: '3m' }),
        })
        expect(advanced.status).toBe(200)
        await page.reload()
        expect(await page.textContent('#state')).toBe('Paid')

        await page.goto(portal.url)
        expect(await page.$$eval('#subscriptions .product', (names) => names.map((n) => n.textContent))).toEqual(['Coffee beans'])
        expect(await page.textContent('#subscriptions .price')).toBe('11.00 EUR / month')
        expect(await page.textContent('#subscriptions .quantity')).toBe('2')
      } finally {
        await browser.close()
      }
      const paid = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] })
      expect((paid.payment_intent as Stripe.PaymentIntent).status).toBe('succeeded')
    },
    30_000,
  )
})
