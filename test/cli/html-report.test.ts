import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { writeReport } from '../../src/harness/report/write-report.js'
import { loadScenarioFile } from '../../src/harness/scenario/load-scenario.js'
import { runScenario } from '../../src/harness/scenario/run-scenario.js'
import { ROOT } from './run-cli.js'

const CHROMIUM = '/usr/bin/chromium'

describe('report.html', () => {
  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('shows the timeline chart and the verdicts in headless Chromium', async () => {
    const result = await runScenario(loadScenarioFile(join(ROOT, 'scenarios', 'receiver-down-two-days.yaml')))
    const dir = await writeReport(result, mkdtempSync(join(tmpdir(), 'service-sim-html-')))
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    try {
      const page = await browser.newPage()
      await page.goto(pathToFileURL(join(dir, 'report.html')).href)
      const svg = page.locator('#timeline svg')
      await expect(svg.count()).resolves.toBe(1)
      const box = await svg.boundingBox()
      expect(box?.width).toBeGreaterThan(400)
      // One symbol per request, delivery attempt and marker; the lanes and legend are labelled.
      const text = await svg.textContent()
      expect(text).toContain('deliveries: hooks')
      expect(text).toContain('virtual time (UTC)')
      expect(text).toContain('retry acknowledged')
      expect(await page.locator('#timeline svg path').count()).toBeGreaterThan(result.requests.length)
      const rows = page.locator('#verdicts tbody tr')
      expect(await rows.count()).toBe(result.verdicts.length)
      expect(await page.locator('#result').textContent()).toBe('all expectations hold')
      await page.screenshot({ path: join(dir, 'screenshot.png'), fullPage: true })
    } finally {
      await browser.close()
    }
  })
})
