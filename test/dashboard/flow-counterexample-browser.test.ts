import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buggyDunningClients, checkDunning, type FlowCheckResult } from '../../src/harness/index.js'
import { axeProblems, CHROMIUM, CHROMIUM_ARGS, shot, startOpen } from './browser-kit.js'

describe('a developer stepping through a failing billing flow property in a real browser', () => {
  let opened: ChildProcess | undefined
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-flow-cx-'))
  let found: FlowCheckResult
  beforeAll(async () => {
    // A dunning client that tells the customer again each time a failed payment's event arrives; a
    // seed whose counterexample is that notice sent again for a redelivered failure.
    const noDedup = buggyDunningClients.find((v) => v.name === 'no-dedup')?.factory
    found = await checkDunning(noDedup as NonNullable<typeof noDedup>, { numRuns: 30, seed: 3, scenarioDir: dir })
  }, 120_000)
  afterAll(() => {
    opened?.kill('SIGINT')
  })

  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    "opens the counterexample, reads each delivery's answer and steps to the violation's witnesses",
    async () => {
      expect(found.ok).toBe(false)
      const violated = `checker ${found.violations?.[0]?.checker}`
      const { child, link } = await startOpen(dir)
      opened = child
      const origin = new URL(link).origin
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' })
        const requested: string[] = []
        page.on('request', (r) => requested.push(r.url()))
        await page.goto(link)
        const title = page.locator('#step-title')
        await expect.poll(() => title.textContent(), { timeout: 30_000 }).toMatch(/^Setup: /)
        expect(await page.textContent('body')).toContain('the same trace as the failing run')
        // One entry per program step, as the property ran them, between the setup and the end.
        const steps = page.getByRole('navigation', { name: 'Steps of the run' }).getByRole('button')
        expect(await steps.count()).toBe((found.steps?.length ?? 0) + 2)

        // The first step by keyboard: the subscription's deliveries, each with the app's answer and how long it took.
        await page.keyboard.press('ArrowRight')
        await expect.poll(() => title.textContent()).toBe(`Step 1: ${found.steps?.[0]}`)
        const step = page.getByRole('list', { name: 'What happened in step 1' })
        const answered = step.getByRole('listitem', {
          name: /^The provider delivered invoice\.paid .* the app answered 200 in \d+ ms: ok$/,
        })
        expect(await answered.count()).toBe(1)
        expect(
          await step
            .getByRole('listitem', { name: /^The app requested POST \/v1\/subscriptions; the provider answered 200$/ })
            .count(),
        ).toBe(1)
        expect(await axeProblems(page)).toEqual([])

        // v: the violation. Its note reads each witness out: what the app did, the event it was handling, the provider's state.
        await page.keyboard.press('v')
        await expect.poll(() => title.textContent()).toMatch(/^Step \d+: redeliver /)
        const note = page.getByRole('note', { name: 'The violation' })
        expect(await note.textContent()).toContain(found.violations?.[0]?.message)
        const said = await note.getByRole('listitem').allTextContents()
        expect(
          said.filter((t) =>
            /The app did dunning\.notice for in_\w+, while handling invoice\.payment_failed evt_\w+ about in_\w+ \(invoice, status open.*the provider's in_\w+ \(invoice, status open/.test(
              t,
            ),
          ).length,
        ).toBeGreaterThan(1)
        const witnesses = page.getByRole('listitem', { name: new RegExp(`Witness of ${violated}$`) })
        expect(await witnesses.count()).toBeGreaterThan(0)
        expect(await witnesses.first().getByRole('definition').allTextContents()).toContainEqual(
          expect.stringMatching(/^invoice\.payment_failed evt_/),
        )
        await page.screenshot({ ...shot('counterexample-flow-violation'), fullPage: true })
        expect(await axeProblems(page)).toEqual([])

        // A witness in an earlier step: its button opens that step and moves the focus to its row.
        const first = found.violations?.[0]?.witness[0] as number
        await note.getByRole('button', { name: `#${first}`, exact: true }).click()
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`m-${first}`)
        expect(await title.textContent()).toMatch(/^Step \d+: advance /)
        await page.screenshot({ ...shot('counterexample-flow-step'), fullPage: true })

        // Everything the page loaded came from the command's own server.
        expect(requested.filter((url) => !url.startsWith(`${origin}/__dashboard`))).toEqual([])
      } finally {
        await browser.close()
      }
    },
    90_000,
  )
})
