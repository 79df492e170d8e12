import { existsSync, mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { customerWithEverything } from './customer-with-everything.js'

const CHROMIUM = '/usr/bin/chromium'
const TOKEN = 'dashboard-pages-suite'
const SHOTS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard')
const shot = (name: string) => {
  const path = join(SHOTS, `${name}.png`)
  return existsSync(path) && !process.env.UPDATE_SCREENSHOTS ? {} : { path }
}
// Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
const withChromium = it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)

describe("the dashboard's management pages in a real browser", () => {
  const sim = createSimulator({ seed: 43, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let serve = ''
  let app: Server
  let appUrl = ''
  let stripe: Stripe
  let browser: Browser | undefined
  let page: Page
  const requested: string[] = []

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: TOKEN })
    const port = (server.address() as AddressInfo).port
    serve = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    app = createServer((req, res) => {
      req.resume()
      req.on('end', () => res.writeHead(503).end('{"error":"maintenance"}'))
    })
    await new Promise<void>((ready) => app.listen(0, '127.0.0.1', ready))
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhook`
    if (!existsSync(CHROMIUM)) return
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
    page.on('request', (r) => requested.push(r.url()))
    await page.goto(`${serve}/__dashboard?token=${TOKEN}`)
    mkdirSync(SHOTS, { recursive: true })
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise((done) => app?.close(done))
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
    // Everything the pages loaded came from serve itself.
    expect(requested.filter((url) => !url.startsWith(`${serve}/__dashboard`))).toEqual([])
  })

  const advance = (duration: string) =>
    fetch(`${serve}/__sim/clock/advance`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ duration }),
    })

  withChromium(
    "reads an endpoint's health, rolls its secret, disables it and sends it a test ping",
    async () => {
      const endpoint = await stripe.webhookEndpoints.create({ url: appUrl, enabled_events: ['customer.created', 'invoice.paid'] })
      await stripe.customers.create({ email: 'jenny@example.com' })
      await advance('1s')
      await page.getByRole('link', { name: 'Webhook endpoints' }).click()
      const card = page.getByRole('article', { name: new RegExp(endpoint.id) })
      await expect.poll(() => card.textContent()).toContain('0% of 1 attempts')
      expect(await card.textContent()).toContain('503')
      const secrets = card.getByRole('list', { name: `Signing secrets of ${endpoint.id}` })
      expect(await secrets.getByRole('listitem').count()).toBe(1)

      await card.getByLabel('Old secret expires').selectOption('1h')
      await card.getByRole('button', { name: `Roll the signing secret of ${endpoint.id}` }).click()
      await expect.poll(() => secrets.getByRole('listitem').count()).toBe(2)
      expect(sim.admin.signingSecrets(endpoint.id)).toHaveLength(2)

      // By keyboard: the disable button, then Enter.
      await card.getByRole('button', { name: `Disable ${endpoint.id}` }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => card.locator('.destination-status').textContent()).toBe('Disabled')
      expect((await stripe.webhookEndpoints.retrieve(endpoint.id)).status).toBe('disabled')

      await card.getByRole('button', { name: `Send a test ping to ${endpoint.id}` }).click()
      await expect.poll(() => card.textContent()).toContain('of 2 attempts')
      expect(
        sim.admin.deliveries({ destination: endpoint.id }).some((d) => d.eventType === 'v2.core.event_destination.ping'),
      ).toBe(true)
      await page.screenshot({ ...shot('endpoints'), fullPage: true })
    },
    60_000,
  )

  withChromium(
    'finds a customer by email and follows its links: an invoice with its lines, the test clock, the account',
    async () => {
      const made = await customerWithEverything(stripe)
      // The dispute opens a moment after its payment: let the clock run to it.
      await advance('1s')
      await page.getByRole('link', { name: 'Objects', exact: true }).click()
      await page.getByLabel('Id or email').fill('jenny.rosen@')
      await page.keyboard.press('Enter')
      const shown = page.getByRole('article', { name: /customer/ })
      await expect.poll(() => shown.textContent()).toContain(made.customer.id)
      for (const section of [
        'Payment methods',
        'Subscriptions',
        'Invoices',
        'Payments',
        'Refunds',
        'Disputes',
        'Balance transactions',
      ])
        expect(await shown.getByRole('region', { name: section }).count(), section).toBe(1)
      expect(await shown.getByRole('region', { name: 'Refunds' }).textContent()).toContain(made.refund.id)
      expect(await shown.getByRole('region', { name: 'Disputes' }).getByRole('listitem').count()).toBe(1)
      const invoice = String(made.subscription.latest_invoice)
      expect(await shown.getByRole('list', { name: `Lines of ${invoice}` }).textContent()).toContain('Pro')
      await page.screenshot({ ...shot('objects'), fullPage: true })

      // Every id is a link: the invoice, then back, then the customer's test clock.
      await shown.getByRole('region', { name: 'Invoices' }).getByRole('link', { name: invoice }).click()
      await expect.poll(() => page.getByRole('article', { name: /invoice/ }).count()).toBe(1)
      expect(page.url()).toContain(`#objects/${invoice}`)
      await page.goBack()
      await page.getByLabel(`${made.customer.id} as JSON`).getByRole('link', { name: made.clock.id }).click()
      const clock = page.getByRole('article', { name: /test_clock/ })
      await expect.poll(() => clock.getByRole('region', { name: 'Customers' }).textContent()).toContain(made.customer.id)

      // A connected account's view: what it holds in each mode.
      const connected = sim.admin.createAccount({ email: 'shop@example.com' })
      await stripe.customers.create({ email: 'buyer@shop.example' }, { stripeAccount: connected.id })
      await page.getByLabel('Id or email').fill(connected.id)
      await page.getByRole('button', { name: 'Search' }).click()
      const account = page.getByRole('article', { name: /account/ })
      await expect.poll(() => account.getByRole('region', { name: 'test mode' }).textContent()).toContain('buyer@shop.example')
    },
    60_000,
  )

  withChromium(
    'reads the virtual time and the pending work, moves the clock and a test clock, and triggers an event by its recipe',
    async () => {
      await page.getByRole('link', { name: 'Clock and triggers' }).click()
      const now = page.locator('.now')
      const before = sim.clock.now
      await expect.poll(() => now.textContent()).toContain(new Date(before).toISOString().slice(0, 10))
      const work = page.getByRole('table', { name: /Pending work/ })
      await expect.poll(() => work.locator('tbody tr').count()).toBeGreaterThan(0)

      await page.getByLabel('Advance by (15m, 2d, 1h30m)').fill('2h')
      await page.getByRole('button', { name: 'Advance the clock by the duration' }).click()
      await expect.poll(() => sim.clock.now).toBe(before + 2 * 3_600_000)
      await expect.poll(() => now.textContent()).toContain(new Date(before + 2 * 3_600_000).toISOString().slice(11, 16))
      const target = new Date(before + 86_400_000).toISOString().slice(0, 19)
      await page.getByLabel('Advance to (UTC)').fill(target)
      await page.getByRole('button', { name: 'Advance the clock to the date' }).click()
      await expect.poll(() => sim.clock.now).toBe(Date.parse(`${target}Z`))

      const clock = await stripe.testHelpers.testClocks.create({
        frozen_time: Math.floor(sim.clock.now / 1000),
        name: 'Renewals',
      })
      await page.getByRole('button', { name: 'Advance the clock by the duration' }).click()
      const row = page.getByRole('row', { name: new RegExp(clock.id) })
      await row.getByLabel(`Advance ${clock.id} by`).fill('31d')
      await row.getByRole('button', { name: `Advance test clock ${clock.id}` }).click()
      await expect
        .poll(async () => (await stripe.testHelpers.testClocks.retrieve(clock.id)).frozen_time)
        .toBe(clock.frozen_time + 31 * 86_400)

      const events = sim.admin.events({ type: 'payment_intent.succeeded' }).length
      await page.getByRole('button', { name: 'Trigger payment_intent.succeeded' }).click()
      await expect.poll(() => sim.admin.events({ type: 'payment_intent.succeeded' }).length).toBe(events + 1)
      await page.screenshot({ ...shot('clock'), fullPage: true })
    },
    60_000,
  )

  withChromium(
    'injects a fault from the Faults page, sees it fire in the log, sets a rate and clears it',
    async () => {
      await page.getByRole('link', { name: 'Faults' }).click()
      const inject = page.getByRole('form', { name: 'Inject a fault' })
      await inject.getByRole('combobox', { name: /^Fault/ }).selectOption('server_error')
      await inject.getByLabel('Operation or event type starts with').fill('customers.create')
      await inject.getByRole('button', { name: 'Inject the fault' }).click()
      await expect.poll(() => inject.getByRole('status').textContent()).toBe('Armed.')
      await expect(stripe.customers.create({ email: 'unlucky@example.com' })).rejects.toMatchObject({ statusCode: 500 })
      const log = page.getByRole('table', { name: 'Fault log' })
      await expect.poll(() => log.locator('tbody tr').first().textContent()).toContain('server_error')
      expect(await log.locator('tbody tr').first().textContent()).toContain('inject')

      const rates = page.getByRole('form', { name: 'Set a rate' })
      await rates.getByLabel('Fault drawn by rate').selectOption('rate_limit')
      await rates.getByLabel('Rate (0 to 1)').fill('0.5')
      await rates.getByRole('button', { name: 'Set the rate' }).click()
      await expect.poll(() => page.getByRole('table', { name: 'Rates in force' }).textContent()).toContain('0.5')
      expect(sim.faults.rates().rate_limit).toBe(0.5)
      await page.screenshot({ ...shot('faults'), fullPage: true })
      await rates.getByRole('button', { name: 'Clear every fault' }).click()
      await expect.poll(() => sim.faults.rates().rate_limit ?? 0).toBe(0)
    },
    60_000,
  )
})
