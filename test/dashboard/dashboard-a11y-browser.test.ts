import { existsSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AxeProblem, axeProblems, CHROMIUM, CHROMIUM_ARGS } from './browser-kit.js'
import { populatedServe } from './populated-serve.js'

const TOKEN = 'dashboard-a11y-suite'
// Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
const withChromium = it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)

describe("the dashboard's pages, checked by axe-core and for what leaves the machine, in Chromium", () => {
  let served: Awaited<ReturnType<typeof populatedServe>>
  let browser: Browser | undefined
  let page: Page
  const requested: string[] = []

  beforeAll(async () => {
    served = await populatedServe(TOKEN)
    if (!existsSync(CHROMIUM)) return
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' })
    page.on('request', (r) => requested.push(r.url()))
    await page.goto(`${served.serve}/__dashboard?token=${TOKEN}`)
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })

  /** Opens a page by its link and waits for its data. */
  const visit = async (title: string, hash: string, shows: string) => {
    await page.goto(`${served.serve}/__dashboard${hash}`)
    await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toContain(shows)
    expect(await page.getByRole('link', { name: title, exact: true }).getAttribute('aria-current')).toBe('page')
  }

  withChromium(
    'finds no serious or critical accessibility problem on any page, in light and dark colours',
    async () => {
      const found: Record<string, AxeProblem[]> = {}
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        // In dark colours only the contrast can differ: the other rules read the same markup.
        const rules = scheme === 'dark' ? ['color-contrast'] : undefined
        for (const stop of served.stops) {
          await visit(stop.title, stop.hash, stop.shows)
          if (stop.opens !== undefined) {
            if (stop.opens.filter !== undefined) await page.getByLabel(stop.opens.filter.label).fill(stop.opens.filter.text)
            await page.getByRole('button', { name: stop.opens.button }).first().click()
            await expect.poll(() => page.locator('main').textContent()).toContain(stop.opens.shows)
          }
          if (stop.hash === '#counterexample') {
            found[`${scheme} ${stop.title} setup`] = await axeProblems(page, rules)
            await page.keyboard.press('v')
            await expect.poll(() => page.getByRole('note', { name: 'The violation' }).count()).toBe(1)
          }
          found[`${scheme} ${stop.title}`] = await axeProblems(page, rules)
        }
      }
      expect(Object.entries(found).filter(([, problems]) => problems.length > 0)).toEqual([])
    },
    120_000,
  )

  withChromium("reports a page's real problems: an unlabelled field and grey on grey", async () => {
    await visit('Faults', '#faults', 'Inject')
    await page.evaluate(() => {
      const field = document.createElement('input')
      field.type = 'text'
      const faint = document.createElement('p')
      faint.textContent = 'hard to read'
      faint.style.cssText = 'color:#bbb;background:#ccc'
      document.querySelector('main')?.append(field, faint)
    })
    expect((await axeProblems(page)).map((p) => p.id).sort()).toEqual(['color-contrast', 'label'])
  })

  withChromium('talks only to the server that serves it: a call or an image elsewhere is refused by its policy', async () => {
    await visit('Requests', '#requests', 'POST')
    // Every request the pages made, on every page, went to the server's own origin.
    expect(requested.length).toBeGreaterThan(served.stops.length)
    expect(requested.filter((url) => new URL(url).origin !== served.serve)).toEqual([])
    // And the policy stops one that would not.
    const refused = await page.evaluate(async () => {
      const seen: string[] = []
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`))
      const call = await fetch('http://192.0.2.1/collect').then(
        () => 'sent',
        () => 'refused',
      )
      const image = new Image()
      image.src = 'http://192.0.2.1/pixel.png'
      await new Promise((done) => setTimeout(done, 200))
      return { call, seen }
    })
    expect(refused.call).toBe('refused')
    expect(refused.seen).toEqual(['connect-src http://192.0.2.1/collect', 'img-src http://192.0.2.1/pixel.png'])
  })
})
