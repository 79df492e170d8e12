import { existsSync } from 'node:fs'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIREFOX } from './browser-kit.js'
import { populatedServe } from './populated-serve.js'

const TOKEN = 'dashboard-firefox-suite'
const hasFirefox = existsSync(FIREFOX)

/** The text of the page's main region. */
const mainText = (page: Page) => page.evaluate(() => document.querySelector('main')?.textContent ?? '')

/** Waits until the main region shows `text`. */
async function showsText(page: Page, text: string): Promise<void> {
  try {
    await page.waitForFunction(
      (t: string) => document.querySelector('main')?.textContent?.includes(t) === true,
      { timeout: 20_000 },
      text,
    )
  } catch {
    throw new Error(`the page never showed '${text}': ${(await mainText(page)).slice(0, 600)}`)
  }
}

/** What has the keyboard focus: its text, or its accessible label. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null
    const label = el?.labels?.[0]?.firstChild?.textContent?.trim()
    return el?.getAttribute('aria-label') ?? label ?? el?.textContent?.trim() ?? ''
  })

/** Presses Tab until the focus is on `name` (at most 60 times), as someone without a mouse would. */
async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab')
    const now = await focused(page)
    if (typeof name === 'string' ? now === name : name.test(now)) return
  }
  throw new Error(`Tab never reached ${String(name)} (last: ${await focused(page)})`)
}

if (!hasFirefox)
  it.skip(`the dashboard in Firefox needs Firefox ESR at ${FIREFOX} (apt-get install firefox-esr; .ci/run installs it)`, () => {})

describe.runIf(hasFirefox)("the dashboard in Debian's Firefox ESR, over WebDriver BiDi", () => {
  let served: Awaited<ReturnType<typeof populatedServe>>
  let browser: Browser
  let page: Page
  const requested: string[] = []

  beforeAll(async () => {
    served = await populatedServe(TOKEN)
    browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true })
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    page.on('request', (r) => {
      requested.push(r.url())
    })
    await page.goto(`${served.serve}/__dashboard?token=${TOKEN}`)
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })

  it('moves through every page by keyboard, each showing its data', async () => {
    expect(page.url()).toBe(`${served.serve}/__dashboard`)
    for (const [i, stop] of served.stops.entries()) {
      if (i > 0) {
        await tabTo(page, stop.title)
        await page.keyboard.press('Enter')
      }
      if (i > 0) expect(await page.evaluate(() => location.hash)).toBe(stop.hash.replace(/\/.*/, ''))
      if (stop.title === 'Objects') {
        // The search field by keyboard: an email finds the customer and its related objects.
        await tabTo(page, /^Id or email/)
        await page.keyboard.type('jenny.rosen@')
        await page.keyboard.press('Enter')
      }
      await showsText(page, stop.shows)
      if (stop.opens !== undefined) {
        // A row of the list, by keyboard: Tab to its button (after filtering), Enter opens it beside the list.
        if (stop.opens.filter !== undefined) {
          await tabTo(page, stop.opens.filter.label)
          await page.keyboard.type(stop.opens.filter.text)
        }
        await tabTo(page, stop.opens.button)
        await page.keyboard.press('Enter')
        await showsText(page, stop.opens.shows)
      }
      // The link of the page shown is marked as the current one.
      const current = await page.evaluate(() => document.querySelector('nav a[aria-current="page"]')?.textContent)
      expect(current).toBe(stop.title)
      await page.focus(`nav a[href="${stop.hash.replace(/\/.*/, '')}"]`)
    }
  }, 90_000)

  it('steps through the counterexample with the keys, to the violation and its witness', async () => {
    await page.goto(`${served.serve}/__dashboard#counterexample`)
    await showsText(page, 'Setup: ')
    const title = () => page.evaluate(() => document.getElementById('step-title')?.textContent ?? '')
    const reaches = async (prefix: string) => {
      try {
        await page.waitForFunction(
          (p: string) => document.getElementById('step-title')?.textContent?.startsWith(p) === true,
          { timeout: 10_000 },
          prefix,
        )
      } catch {
        throw new Error(`the step-through never reached '${prefix}' (at '${await title()}', focus on '${await focused(page)}')`)
      }
    }
    await page.keyboard.press('ArrowRight')
    await reaches('Step 1: ')
    const delivered = await page.$$eval('li.moment', (rows) =>
      rows.map((r) => r.getAttribute('aria-label') ?? '').filter((l) => l.startsWith('The provider delivered')),
    )
    expect(delivered.some((l) => /the app answered 200 in \d+ ms: ok$/.test(l))).toBe(true)
    await page.keyboard.press('v')
    await page.waitForSelector('[role="note"][aria-label="The violation"]')
    expect(await title()).toMatch(/^Step \d+: redeliver /)
    const note = await page.$eval('[role="note"][aria-label="The violation"]', (n) => n.textContent ?? '')
    expect(note).toMatch(/The app did dunning\.notice for in_\w+, while handling invoice\.payment_failed/)
    // A witness's button, by keyboard: the focus lands on its row, in the step that holds it.
    await tabTo(page, /^#\d+$/)
    const witness = (await focused(page)).slice(1)
    await page.keyboard.press('Enter')
    await page.waitForFunction((id: string) => document.activeElement?.id === `m-${id}`, {}, witness)
    await page.keyboard.press('End')
    await reaches('End of run: ')
    await page.keyboard.press('Home')
    await reaches('Setup: ')
    // Everything the pages loaded came from the server that serves them.
    expect(requested.length).toBeGreaterThan(served.stops.length)
    // (`data:` addresses, such as the page's empty icon, are read without the network.)
    expect(requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== served.serve)).toEqual([])
  }, 60_000)
})
