import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { createSimulator } from 'service-sim'
import { openDashboard } from 'service-sim/dashboard'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'

const CHROMIUM = '/usr/bin/chromium'

describe('the dashboard of a simulator inside a test', () => {
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'shows the requests a paused test made, read-only, and leaves the run as it was',
    async () => {
      const sim = createSimulator({ seed: 47, headerPrefix: 'Stripe' })
      const stripe = new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch) })
      const customer = await stripe.customers.create({ email: 'paused@example.com' })
      const hash = sim.trace.hash()
      const { url, close } = await openDashboard(sim)
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage()
        await page.goto(url)
        await page.getByRole('button', { name: 'Show POST /v1/customers (200)' }).click()
        await expect.poll(() => page.getByLabel('Response body').textContent()).toContain(customer.id)
        await page.getByRole('link', { name: 'Objects', exact: true }).click()
        await page.getByLabel('Id or email').fill('paused@')
        await page.keyboard.press('Enter')
        await expect.poll(() => page.getByRole('article', { name: /customer/ }).textContent()).toContain(customer.id)
        // An action is refused: the page says so, and the clock has not moved.
        const before = sim.clock.now
        await page.getByRole('link', { name: 'Clock and triggers' }).click()
        await page.getByRole('button', { name: 'Advance the clock by the duration' }).click()
        await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('read-only')
        expect(sim.clock.now).toBe(before)
        expect(sim.trace.hash()).toBe(hash)
      } finally {
        await browser.close()
        await close()
      }
      // Closed: nothing listens any more.
      await expect(fetch(url)).rejects.toThrow()
    },
    60_000,
  )

  it('refuses the API, a missing token and a foreign Origin; with readOnly: false it acts', async () => {
    const sim = createSimulator({ seed: 48, headerPrefix: 'Stripe' })
    const { url, close } = await openDashboard(sim, { readOnly: false, token: 'in-process' })
    const origin = new URL(url).origin
    try {
      expect((await fetch(`${origin}/v1/customers`)).status).toBe(404)
      expect((await fetch(`${origin}/__dashboard/api/state`)).status).toBe(401)
      const bearer = { Authorization: 'Bearer in-process', 'Content-Type': 'application/json' }
      const foreign = await fetch(`${origin}/__dashboard/api/clock/advance`, {
        method: 'POST',
        headers: { ...bearer, Origin: 'https://evil.example' },
        body: '{"duration":"1h"}',
      })
      expect(foreign.status).toBe(403)
      const before = sim.clock.now
      const moved = await fetch(`${origin}/__dashboard/api/clock/advance`, {
        method: 'POST',
        headers: bearer,
        body: '{"duration":"1h"}',
      })
      expect(moved.status).toBe(200)
      expect(sim.clock.now).toBe(before + 3_600_000)
    } finally {
      await close()
    }
  })

  it('refuses what is no simulator and options it does not know, naming them, before it listens', () => {
    const sim = createSimulator({ seed: 1 })
    expect(() => openDashboard({} as never)).toThrow(/openDashboard: expected a simulator from createSimulator\(\)/)
    expect(() => openDashboard(sim, { prot: 4545 } as never)).toThrow(/unknown option\(s\) 'prot'; known: port, readOnly, token/)
    expect(() => openDashboard(sim, { port: 70_000 })).toThrow(/option 'port' must be an integer from 0 to 65535/)
    expect(() => openDashboard(sim, { readOnly: 'no' as never })).toThrow(/option 'readOnly' must be a boolean/)
    expect(() => openDashboard(sim, { token: '' })).toThrow(/option 'token' must be a non-empty string/)
  })
})
