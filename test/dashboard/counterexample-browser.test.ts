import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CounterexampleSource } from '../../src/cli/counterexample/counterexample-source.js'
import { startHttpServer } from '../../src/cli/http-server.js'
import { buggyWebhookReceivers, checkWebhookHandler } from '../../src/harness/index.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { CHROMIUM, shot, startOpen } from './browser-kit.js'

const SHOTS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard')

describe('a developer stepping through a failing property in a real browser', () => {
  let opened: ChildProcess | undefined
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-cx-'))
  let found: Awaited<ReturnType<typeof checkWebhookHandler>>
  beforeAll(async () => {
    // The failing property: an app that processes a duplicate delivery twice; its counterexample is saved.
    const app = buggyWebhookReceivers.find((v) => v.name === 'no-dedup')?.factory
    found = await checkWebhookHandler(app as NonNullable<typeof app>, {
      numRuns: 40,
      name: 'no-dedup',
      scenarioDir: dir,
      workload: { lateRedelivery: false },
    })
  }, 60_000)
  afterAll(() => {
    opened?.kill('SIGINT')
  })

  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'opens the counterexample of an app that processes a duplicate delivery twice and steps to the violation',
    async () => {
      expect(found.ok).toBe(false)
      const violated = `checker ${found.violations?.[0]?.checker}`
      const { child, link } = await startOpen(dir)
      opened = child
      const origin = new URL(link).origin

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' })
        const requested: string[] = []
        page.on('request', (r) => requested.push(r.url()))
        await page.goto(link)
        expect(page.url()).toBe(`${origin}/__dashboard`)
        const title = page.locator('#step-title')
        await expect.poll(() => title.textContent(), { timeout: 20_000 }).toMatch(/^Setup: /)
        expect(await page.getByRole('heading', { name: '1 check(s) violated' }).count()).toBe(1)
        expect(await page.textContent('body')).toContain('the same trace as the failing run')

        // The first step by keyboard: the event, the faults, and each delivery with the app's answer.
        await page.keyboard.press('ArrowRight')
        await expect.poll(() => title.textContent()).toMatch(/^Step 1: /)
        const step = page.getByRole('list', { name: 'What happened in step 1' })
        const deliveries = step.getByRole('listitem', {
          name: /^The provider delivered .* the app answered 202 in \d+ ms: queued/,
        })
        expect(await deliveries.count()).toBeGreaterThan(1)
        expect(await step.getByRole('listitem', { name: /^Fault duplicate/ }).count()).toBeGreaterThan(0)
        mkdirSync(SHOTS, { recursive: true })
        await page.screenshot({ ...shot('counterexample-step'), fullPage: true })

        // v: the violation, its witnessing rows marked with the check they witness.
        await page.keyboard.press('v')
        await expect.poll(() => title.textContent()).toMatch(/^End of run: /)
        expect(await page.getByRole('note').textContent()).toContain(found.violations?.[0]?.message)
        const witnesses = page.getByRole('listitem', { name: new RegExp(`Witness of ${violated}$`) })
        expect(await witnesses.count()).toBeGreaterThan(0)
        await page.screenshot({ ...shot('counterexample-violation'), fullPage: true })

        // A witness's button opens the step it is in and moves the focus to its row.
        const first = found.violations?.[0]?.witness[0] as number
        await page
          .getByRole('button', { name: `#${first}`, exact: true })
          .first()
          .click()
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`m-${first}`)
        expect(await title.textContent()).toMatch(/^Step 1: /)
        await page.keyboard.press('p')
        await expect.poll(() => title.textContent()).toMatch(/^Setup: /)

        // Everything the page loaded came from the command's own server.
        expect(requested.filter((url) => !url.startsWith(`${origin}/__dashboard`))).toEqual([])
      } finally {
        await browser.close()
      }
    },
    90_000,
  )

  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    "finds the same step-through on serve's Counterexample page, for the files of --counterexamples",
    async () => {
      const server = await startHttpServer(createSimulator({ seed: 40 }), {
        adminToken: null,
        counterexamples: new CounterexampleSource(dir),
      })
      const serve = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
        await page.goto(`${serve}/__dashboard`)
        await page.getByRole('link', { name: 'Counterexample' }).click()
        await expect.poll(() => page.locator('#step-title').textContent(), { timeout: 20_000 }).toMatch(/^Setup: /)
        await page.getByRole('button', { name: 'Go to the violation' }).click()
        await expect.poll(() => page.locator('#step-title').textContent()).toMatch(/^End of run: /)
        expect(page.url()).toBe(`${serve}/__dashboard#counterexample`)
      } finally {
        await browser.close()
        server.closeAllConnections()
        await new Promise((done) => server.close(done))
      }
    },
    60_000,
  )
})
