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

describe('the customer in a real browser against serve', () => {
  // Started at the real time: the app checks each signature's timestamp against its own clock.
  const sim = createSimulator({ seed: 25, headerPrefix: 'Stripe', start: Date.now() })
  let server: SimServer
  let serve = ''
  let app: OneSecretApp
  let shop: Server
  let shopUrl = ''
  let stripe: Stripe

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: 'browser-suite' })
    const port = (server.address() as AddressInfo).port
    serve = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    app = await startOneSecretApp({ path: '/webhook' })
    const [hook] = setUpForwarding(sim, { url: app.url, events: ['*'] })
    app.useSecret(hook?.signing_secret as string)
    // The shop's backend: each visit makes a payment intent and renders the page with its client secret.
    shop = createServer((_req, res) => {
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
        expect(await page.textContent('#message')).toMatch(/^Declined: /)
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
})
