import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chartPoints, timelineSvg } from '../../src/harness/report/chart.js'
import { buildReport } from '../../src/harness/report/report.js'
import { writeReport } from '../../src/harness/report/write-report.js'
import { loadScenarioFile } from '../../src/harness/scenario/load-scenario.js'
import { runScenario } from '../../src/harness/scenario/run-scenario.js'
import type { TraceEntry } from '../../src/kernel/trace.js'
import { ROOT } from './run-cli.js'

const CHROMIUM = '/usr/bin/chromium'

describe('report.html', () => {
  // Locally a machine without Chromium skips; CI (where .ci/run installs it) must run it.
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'shows the timeline chart and the verdicts in headless Chromium',
    async () => {
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
        expect(text).toContain('hooks · retry refused 503 (27)')
        expect(text).toContain('virtual time (UTC)')
        expect(text).toContain('retry acknowledged (3)')
        expect(await page.locator('#deliveries tbody tr').first().textContent()).toBe('hooks333303300')
        expect(await page.locator('#timeline svg path').count()).toBeGreaterThan(result.requests.length)
        const rows = page.locator('#verdicts tbody tr')
        expect(await rows.count()).toBe(result.verdicts.length)
        expect(await page.locator('#result').textContent()).toBe('all expectations hold')
        await page.screenshot({ path: join(dir, 'screenshot.png'), fullPage: true })
      } finally {
        await browser.close()
      }
    },
  )
})

/** The fill of each legend entry, by its label. */
function legendFills(svg: string): Map<string, string> {
  const out = new Map<string, string>()
  const legend = svg.slice(svg.indexOf('role-legend'))
  const symbols = [...legend.matchAll(/role-legend-symbol[\s\S]*?fill="(#[0-9a-f]{6})"/g)].map((m) => m[1] as string)
  const labels = [...legend.matchAll(/role-legend-label[\s\S]*?<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] as string)
  for (const [i, l] of labels.entries()) out.set(l, symbols[i] as string)
  return out
}

describe('timeline chart', () => {
  it('gives every outcome of a rate-limit storm its own row, count and hue, and faults a triangle', async () => {
    const report = buildReport(await runScenario(loadScenarioFile(join(ROOT, 'scenarios', 'rate-limit-storm.yaml'))))
    const rows = new Set(chartPoints(report).map((p) => p.row))
    for (const reason of ['global-rate', 'endpoint-rate', 'resource-specific', 'global-concurrency', 'endpoint-concurrency'])
      expect([...rows].some((r) => r.startsWith(`429 ${reason} (`))).toBe(true)
    const svg = await timelineSvg(report)
    const fills = legendFills(svg)
    expect(fills.size).toBe(new Set(chartPoints(report).map((p) => p.category)).size)
    expect(new Set(fills.values()).size).toBe(fills.size)
    expect([...fills.keys()]).toContain(`200 (${report.summary.outcomes['200']})`)
    expect(svg).toMatch(/role-legend-symbol[\s\S]*?M-?[\d.]+,[\d.-]+L/)
  })

  it('puts usage, invoice events and payments of a billing run on the timeline, each in its own hue', async () => {
    let trace: readonly TraceEntry[] = []
    const result = await runScenario(loadScenarioFile(join(ROOT, 'scenarios', 'usage-to-invoice.yaml')), {
      onTrace: (entries) => {
        trace = entries
      },
    })
    const report = buildReport(result, trace)
    const rows = [
      ...new Set(
        chartPoints(report)
          .filter((p) => p.group === 'billing')
          .map((p) => p.row),
      ),
    ]
    expect(rows).toHaveLength(7)
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^usage processed \(\d+\)$/),
        'invoice.created (8)',
        'invoice.finalized (8)',
        'invoice.paid (7)',
        'invoice.payment_failed (1)',
        'payment succeeded (3)',
        'payment failed (1)',
      ]),
    )
    // 200 and delivery acknowledged share their green on purpose; no billing hue is shared.
    const fills = legendFills(await timelineSvg(report))
    const billing = [...fills].filter(([legend]) => /^(usage|invoice|payment)/.test(legend))
    expect(billing).toHaveLength(7)
    for (const [legend, fill] of billing)
      expect([...fills].filter(([l, f]) => l !== legend && f === fill).map(([l]) => l)).toEqual([])
  })

  it('draws 200 and an acknowledged retry in different colours', async () => {
    const report = buildReport(await runScenario(loadScenarioFile(join(ROOT, 'scenarios', 'receiver-down-two-days.yaml'))))
    const fills = legendFills(await timelineSvg(report))
    expect(fills.get('200 (4)')).toBeDefined()
    expect(fills.get('retry acknowledged (3)')).toBeDefined()
    expect(fills.get('200 (4)')).not.toBe(fills.get('retry acknowledged (3)'))
  })
})
