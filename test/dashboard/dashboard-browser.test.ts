import { existsSync, mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'

const CHROMIUM = '/usr/bin/chromium'
const TOKEN = 'dashboard-browser-suite'
const SHOTS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard')

/**
 * A screenshot for the docs: written when missing or when UPDATE_SCREENSHOTS is set (the request
 * page shows a wall time, so each run's pixels differ), otherwise taken and dropped.
 */
const shot = (name: string) => {
  const path = join(SHOTS, `${name}.png`)
  return existsSync(path) && !process.env.UPDATE_SCREENSHOTS ? {} : { path }
}

describe("a developer reading serve's dashboard in a real browser", () => {
  // A manual clock: the first attempt runs when the test moves it, and the automatic retry stays ahead.
  const sim = createSimulator({ seed: 40, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let serve = ''
  let app: Server
  let appUrl = ''
  let answer = { status: 500, body: '{"error":"database unavailable"}' }
  let stripe: Stripe

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: TOKEN })
    const port = (server.address() as AddressInfo).port
    serve = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    // The developer's app: its webhook handler fails until its database is back.
    app = createServer((req, res) => {
      req.resume()
      req.on('end', () => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body))
    })
    await new Promise<void>((ready) => app.listen(0, '127.0.0.1', ready))
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhook`
  })

  afterAll(async () => {
    await new Promise((done) => app?.close(done))
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
  })

  /** Moves the virtual clock a second: the first attempt, due now, runs; the automatic retry stays ahead. */
  const tick = () =>
    fetch(`${serve}/__sim/clock/advance`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"duration":"1s"}',
    })

  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    "finds the failed delivery, reads the app's 500 and the next retry, resends it once the app is fixed and sees it delivered",
    async () => {
      const endpoint = await stripe.webhookEndpoints.create({ url: appUrl, enabled_events: ['customer.created'] })
      const customer = await stripe.customers.create({ email: 'jenny@example.com' }, { idempotencyKey: 'signup-jenny' })
      expect((await tick()).status).toBe(200)
      const [event] = (await stripe.events.list({ type: 'customer.created' })).data
      expect(event).toBeDefined()
      const eventId = event?.id ?? ''

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
        const requested: string[] = []
        page.on('request', (r) => requested.push(r.url()))
        // The banner's link: it sets the cookie and lands on the page without the token in the address.
        await page.goto(`${serve}/__dashboard?token=${TOKEN}`)
        expect(page.url()).toBe(`${serve}/__dashboard`)

        // Requests: the signup with its idempotency key, opened to read what the service answered.
        const signup = page.getByRole('button', { name: 'Show POST /v1/customers (200)' })
        await signup.click()
        const detail = page.getByRole('region', { name: 'Request detail' })
        await expect.poll(() => detail.getByLabel('Response body').textContent()).toContain(customer.id)
        expect(await detail.textContent()).toContain('signup-jenny')
        // Copied as curl and as the node client's call: the text shows, ready to paste.
        await detail.getByRole('button', { name: 'Copy as curl' }).click()
        await expect.poll(() => detail.getByLabel('curl command').textContent()).toContain("-H 'Idempotency-Key: signup-jenny'")
        await detail.getByRole('button', { name: 'Copy as Node call' }).click()
        await expect.poll(() => detail.getByLabel('Node client call').textContent()).toContain('await stripe.customers.create({')
        mkdirSync(SHOTS, { recursive: true })
        await page.screenshot(shot('requests'))

        // Live: a request made now shows without reloading the page.
        const readBefore = requested.length
        await stripe.customers.create({ email: 'later@example.com' })
        await expect.poll(() => page.getByRole('button', { name: 'Show POST /v1/customers (200)' }).count()).toBe(2)
        // Only the new row was read: the counts, then one row from the top, not the list again.
        const reads = requested.slice(readBefore).filter((u) => u.includes('/api/requests?'))
        expect(reads).toContain(`${serve}/__dashboard/api/requests?offset=0&limit=1&bodies=false`)
        expect(reads.every((u) => /limit=[01](&|$)/.test(u))).toBe(true)

        // Events and deliveries: the failed attempt, the app's answer and the next retry.
        await page.getByRole('link', { name: 'Events and deliveries' }).click()
        await page.getByLabel('Event type contains').fill('customer.created')
        // The list shows how the delivery stands; the event opens beside it with every attempt.
        const row = page.locator('tr.row', { hasText: eventId })
        await expect.poll(() => row.textContent()).toContain('Pending · 500')
        await row.getByRole('button', { name: `Show customer.created ${eventId}` }).click()
        const delivery = page.getByRole('region', { name: `Delivery of ${eventId} to ${endpoint.id}` })
        await expect.poll(() => delivery.textContent()).toContain('database unavailable')
        const firstAttempt = delivery.locator('tbody tr').first()
        expect(await firstAttempt.locator('td').nth(4).textContent()).toBe('500')
        const nextRetry = await delivery.locator('.next-retry').textContent()
        expect(nextRetry).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/)
        expect(Date.parse(`${nextRetry}Z`)).toBeGreaterThan(sim.clock.now)
        await page.screenshot({ ...shot('events'), fullPage: true })

        // The app is fixed: a resend from the dashboard reaches it and is delivered.
        answer = { status: 200, body: '{"received":true}' }
        // By keyboard, as anyone not using a mouse would.
        await delivery.getByRole('button', { name: `Resend ${eventId} to ${endpoint.id}` }).focus()
        await page.keyboard.press('Enter')
        await expect.poll(() => delivery.locator('tbody tr').count()).toBe(2)
        const resent = delivery.locator('tbody tr').nth(1)
        expect(await resent.locator('td').nth(2).textContent()).toBe('dashboard')
        expect(await resent.locator('td').nth(4).textContent()).toBe('200')
        expect(await resent.textContent()).toContain('"received": true')
        await expect.poll(() => delivery.locator('.delivery-status').textContent()).toBe('Delivered')
        await page.screenshot({ ...shot('delivered'), fullPage: true })

        // Everything the page loaded came from serve itself.
        expect(requested.filter((url) => !url.startsWith(`${serve}/__dashboard`))).toEqual([])
      } finally {
        await browser.close()
      }
    },
    60_000,
  )
})
