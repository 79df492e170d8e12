import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { setUpForwarding } from '../../src/cli/serve-forwarding.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { type OneSecretApp, startOneSecretApp } from '../serve/one-secret-app.js'

const CHROMIUM = '/usr/bin/chromium'

/** The app's own checkout page: the stand-in library from serve, a payment element, a Pay button. */
function payPage(serve: string, publishableKey: string, clientSecret: string): string {
  return `<!doctype html><html><body>
<form id="form"><div id="payment-element"></div><button id="submit" type="submit">Pay</button></form>
<p id="result"></p>
<script src="${serve}/v3/stripe.js"></script>
<script>
const stripe = Stripe(${JSON.stringify(publishableKey)})
const elements = stripe.elements({ clientSecret: ${JSON.stringify(clientSecret)} })
elements.create('payment').mount('#payment-element')
document.getElementById('form').addEventListener('submit', async (e) => {
  e.preventDefault()
  const r = await stripe.confirmPayment({ elements, confirmParams: { return_url: location.href }, redirect: 'if_required' })
  document.getElementById('result').textContent = r.error ? 'error:' + r.error.code : 'status:' + r.paymentIntent.status
})
</script></body></html>`
}

/** The app's page that saves a card for later: the stand-in's payment element and `confirmSetup`. */
function savePage(serve: string, publishableKey: string, clientSecret: string): string {
  return `<!doctype html><html><body>
<form id="form"><div id="payment-element"></div><button id="submit" type="submit">Save</button></form>
<p id="result"></p>
<script src="${serve}/v3/stripe.js"></script>
<script>
const stripe = Stripe(${JSON.stringify(publishableKey)})
const elements = stripe.elements({ clientSecret: ${JSON.stringify(clientSecret)} })
elements.create('payment').mount('#payment-element')
document.getElementById('form').addEventListener('submit', async (e) => {
  e.preventDefault()
  const r = await stripe.confirmSetup({ elements, confirmParams: { return_url: location.href }, redirect: 'if_required' })
  document.getElementById('result').textContent = r.error ? 'error:' + r.error.code : 'status:' + r.setupIntent.status
})
</script></body></html>`
}

/** The shop's checkout button, as in the provider's Checkout sample: a form posted to its backend. */
const CHECKOUT_PAGE = `<!doctype html><html><body>
<form action="/create-checkout-session" method="POST"><button id="checkout" type="submit">Checkout</button></form>
</body></html>`

/** The shop's success page: the session id comes back in the query. */
const DONE_PAGE = `<!doctype html><html><body><p id="done">Thanks for your order!</p></body></html>`

describe('the customer in a real browser against serve', () => {
  // Started at the real time: the app checks each signature's timestamp against its own clock. The
  // virtual clock does not move while the browser works, so the per-second rate limits would add
  // up over the whole suite: they are off.
  const sim = createSimulator({ seed: 25, headerPrefix: 'Stripe', start: Date.now(), limits: false })
  let server: SimServer
  let serve = ''
  let app: OneSecretApp
  let shop: Server
  let shopUrl = ''
  let stripe: Stripe
  let price: Stripe.Price

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: 'browser-suite' })
    const port = (server.address() as AddressInfo).port
    serve = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    const product = await stripe.products.create({ name: 'Stubborn Attachments' })
    price = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 1500 })
    app = await startOneSecretApp({ path: '/webhook' })
    const [hook] = setUpForwarding(sim, { url: app.url, events: ['*'] })
    app.useSecret(hook?.signing_secret as string)
    // The shop's backend: its checkout button makes a session and sends the customer to its url (as
    // the provider's Checkout sample does); each other visit makes a payment intent and renders the
    // page with its client secret.
    shop = createServer((req, res) => {
      if (req.url === '/checkout') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(CHECKOUT_PAGE)
      if (req.url?.startsWith('/done')) return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(DONE_PAGE)
      if (req.url === '/save') {
        stripe.customers
          .create({ email: 'saver@example.com' })
          .then((customer) => stripe.setupIntents.create({ customer: customer.id }))
          .then(
            (si) =>
              res
                .writeHead(200, { 'Content-Type': 'text/html' })
                .end(savePage(serve, sim.platform.publishableKey.test, si.client_secret as string)),
            (error: Error) => res.writeHead(500).end(error.message),
          )
        return
      }
      if (req.method === 'POST' && req.url === '/create-checkout-session') {
        const base = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
        stripe.checkout.sessions
          .create({
            mode: 'payment',
            line_items: [{ price: price.id, quantity: 2 }],
            success_url: `${base}/done?session_id={CHECKOUT_SESSION_ID}`,
            cancel_url: `${base}/checkout`,
          })
          .then(
            (session) => res.writeHead(303, { Location: session.url as string }).end(),
            (error: Error) => res.writeHead(500).end(error.message),
          )
        return
      }
      stripe.paymentIntents.create({ amount: 2000, currency: 'usd' }).then(
        (pi) =>
          res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end(payPage(serve, sim.platform.publishableKey.test, pi.client_secret as string)),
        (error: Error) => res.writeHead(500).end(error.message),
      )
    })
    await new Promise<void>((ready) => shop.listen(0, '127.0.0.1', ready))
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/pay`
  })

  afterAll(async () => {
    await new Promise((done) => shop?.close(done))
    await app?.close()
    await new Promise((done) => server?.close(done))
  })

  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'pays with a test card, fails and then completes a 3-D Secure challenge, pays a hosted invoice; the webhooks verify',
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage()
        // A card that pays.
        await page.goto(shopUrl)
        await page.click('#submit')
        await page.waitForFunction(() => document.getElementById('result')?.textContent !== '')
        expect(await page.textContent('#result')).toBe('status:succeeded')

        // A 3-D Secure card: the challenge dialog fails, then a second attempt completes it.
        await page.goto(shopUrl)
        await page.check('input[value="pm_card_threeDSecure2Required"]')
        await page.click('#submit')
        await page.click('#service-sim-3ds-fail')
        await page.waitForFunction(() => document.getElementById('result')?.textContent !== '')
        expect(await page.textContent('#result')).toBe('error:payment_intent_authentication_failure')
        await page.evaluate(() => {
          ;(document.getElementById('result') as HTMLElement).textContent = ''
        })
        await page.click('#submit')
        await page.click('#service-sim-3ds-complete')
        await page.waitForFunction(() => document.getElementById('result')?.textContent !== '')
        expect(await page.textContent('#result')).toBe('status:succeeded')

        // A hosted invoice: its URL is serve's page; a declined card, then one that pays.
        const customer = await stripe.customers.create({ email: 'browser@example.com' })
        await stripe.invoiceItems.create({ customer: customer.id, amount: 4200, currency: 'usd' })
        const draft = await stripe.invoices.create({
          customer: customer.id,
          collection_method: 'send_invoice',
          days_until_due: 30,
          pending_invoice_items_behavior: 'include',
        })
        const invoice = await stripe.invoices.finalizeInvoice(draft.id as string)
        expect(invoice.hosted_invoice_url?.startsWith(`${serve}/__customer/invoice/`)).toBe(true)
        await page.goto(invoice.hosted_invoice_url as string)
        expect(await page.textContent('#amount')).toBe('42.00 USD')
        await page.check('input[value="pm_card_chargeDeclined"]')
        await page.click('#pay')
        await page.waitForFunction(() => document.getElementById('message')?.textContent !== '')
        // The provider's own wording of the decline, its code kept on the message.
        expect(await page.textContent('#message')).toBe('Your card was declined.')
        expect(await page.getAttribute('#message', 'data-code')).toBe('generic_decline')
        await page.check('input[value="pm_card_visa"]')
        await page.click('#pay')
        await page.waitForFunction(() => document.getElementById('message')?.textContent === 'Paid')
        expect((await stripe.invoices.retrieve(invoice.id as string)).status).toBe('paid')
      } finally {
        await browser.close()
      }
      await sim.settle()
      const types = app.verified.map((e) => e.type)
      expect(app.refused).toEqual([])
      expect(types.filter((t) => t === 'payment_intent.succeeded').length).toBeGreaterThanOrEqual(2)
      expect(types).toContain('payment_intent.payment_failed')
      expect(types).toContain('invoice.paid')
    },
    30_000,
  )
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    "completes a checkout session on serve's hosted page: a failed 3-D Secure challenge, then a completed one; the webhooks verify",
    async () => {
      const from = app.verified.length
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      let sessionId = ''
      try {
        const page = await browser.newPage()
        await page.goto(`${shopUrl.replace(/\/pay$/, '')}/checkout`)
        await Promise.all([page.waitForURL(`${serve}/__customer/checkout/**`), page.click('#checkout')])
        expect(await page.textContent('#amount')).toBe('30.00 USD')
        sessionId = new URL(page.url()).pathname.split('/').pop() as string
        await page.check('input[value="pm_card_threeDSecure2Required"]')
        await page.click('#pay')
        await page.click('#service-sim-3ds-fail')
        await page.waitForFunction(() => document.getElementById('message')?.textContent !== '')
        expect(await page.textContent('#message')).toMatch(/^The provided PaymentMethod has failed authentication/)
        expect(await page.getAttribute('#message', 'data-code')).toBe('payment_intent_authentication_failure')
        expect((await stripe.checkout.sessions.retrieve(sessionId)).status).toBe('open')
        await page.click('#pay')
        await Promise.all([page.waitForURL(/\/done\?session_id=/), page.click('#service-sim-3ds-complete')])
        expect(new URL(page.url()).searchParams.get('session_id')).toBe(sessionId)
        expect(await page.textContent('#done')).toBe('Thanks for your order!')
      } finally {
        await browser.close()
      }
      const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent'] })
      expect(session).toMatchObject({ status: 'complete', payment_status: 'paid', amount_total: 3000 })
      expect((session.payment_intent as Stripe.PaymentIntent).status).toBe('succeeded')
      await sim.settle()
      const end = Date.now() + 10_000
      const completed = () => app.verified.slice(from).some((e) => e.type === 'checkout.session.completed')
      while (Date.now() < end && !completed()) await new Promise((r) => setTimeout(r, 25))
      const types = app.verified.slice(from).map((e) => e.type)
      expect(app.refused).toEqual([])
      expect(types).toContain('payment_intent.payment_failed')
      expect(types.indexOf('payment_intent.succeeded')).toBeLessThan(types.indexOf('checkout.session.completed'))
    },
    30_000,
  )
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'saves a card that asks for 3-D Secure with confirmSetup: a failed challenge, then a completed one; the webhooks verify',
    async () => {
      const from = app.verified.length
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage()
        await page.goto(`${shopUrl.replace(/\/pay$/, '')}/save`)
        await page.check('input[value="pm_card_threeDSecure2Required"]')
        await page.click('#submit')
        await page.click('#service-sim-3ds-fail')
        await page.waitForFunction(() => document.getElementById('result')?.textContent !== '')
        expect(await page.textContent('#result')).toBe('error:setup_intent_authentication_failure')
        await page.evaluate(() => {
          ;(document.getElementById('result') as HTMLElement).textContent = ''
        })
        await page.click('#submit')
        await page.click('#service-sim-3ds-complete')
        await page.waitForFunction(() => document.getElementById('result')?.textContent !== '')
        expect(await page.textContent('#result')).toBe('status:succeeded')
      } finally {
        await browser.close()
      }
      await sim.settle()
      const end = Date.now() + 10_000
      const saved = () => app.verified.slice(from).some((e) => e.type === 'setup_intent.succeeded')
      while (Date.now() < end && !saved()) await new Promise((r) => setTimeout(r, 25))
      const types = app.verified.slice(from).map((e) => e.type)
      expect(app.refused).toEqual([])
      expect(types).toContain('setup_intent.setup_failed')
      expect(types.indexOf('payment_method.attached')).toBeLessThan(types.indexOf('setup_intent.succeeded'))
    },
    30_000,
  )
})
