import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyUsageReporters, buggyWebhookReceivers, checkUsageReporter, checkWebhookHandler } from '../../src/harness/index.js'
import { run } from './in-process.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'service-sim-'))
const variant = <T extends { name: string }>(list: readonly T[], name: string) => list.find((v) => v.name === name) as T

describe('service-sim replay of property-harness counterexamples', () => {
  it('replays a webhook counterexample file to the trace hash of the failing run and exits 1 naming the checker', async () => {
    const dir = tmp()
    const found = await checkWebhookHandler(variant(buggyWebhookReceivers, 'no-dedup').factory, {
      numRuns: 40,
      name: 'no-dedup',
      scenarioDir: dir,
      // No manual resends: the duplicate then comes from a fault, whose line the replay prints.
      workload: { lateRedelivery: false },
    })
    expect(found.ok).toBe(false)
    const file = found.scenarioFile as string
    const reports = tmp()
    const r = await run(['replay', file, '--report', reports])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`(trace ${(found.traceHash as string).slice(0, 16)})`)
    expect(r.stdout).toMatch(/ok {3}reproduces the recorded trace hash/)
    expect(r.stdout).toContain(`FAIL checker ${found.violations?.[0]?.checker}`)
    const seed = JSON.parse(readFileSync(file, 'utf8')).seed
    const report = JSON.parse(readFileSync(join(reports, 'no-dedup', String(seed), 'report.json'), 'utf8'))
    expect(report.trace.hash).toBe(found.traceHash)
    // The delivery attempts the witnesses cite are in the report and its chart, read from the trace.
    expect(report.summary.deliveries).toBeGreaterThan(1)
    expect(report.deliveries.every((d: { receiver: string }) => d.receiver.startsWith('ed_'))).toBe(true)
    const html = readFileSync(join(reports, 'no-dedup', String(seed), 'report.html'), 'utf8')
    expect(html).toContain(`${report.summary.deliveries} delivery attempts`)
    expect(html).toMatch(/<table id="deliveries">[\s\S]*<td>ed_/)
    expect(html).toMatch(/· delivery acknowledged \(1\)/)
    // The report says how to step through the counterexample in the dashboard.
    expect(html).toContain(`<p id="step-through">`)
    expect(html).toContain(`<code>npx service-sim open ${relative(process.cwd(), file)}</code>`)
    // A fault fired while a step ran is printed after that step's line, not before step #1.
    const lines = r.stdout.split('\n')
    const fault = lines.findIndex((l) => l.includes('! fault'))
    expect(fault).toBeGreaterThan(lines.findIndex((l) => /#1\s/.test(l)))
  })

  it('replays a usage-reporter counterexample, and needs --client for a subject it cannot name', async () => {
    const dir = tmp()
    const found = await checkUsageReporter(variant(buggyUsageReporters, 'no-identifiers').factory, {
      numRuns: 40,
      name: 'no-identifiers',
      scenarioDir: dir,
      faults: { preset: 'realistic' },
    })
    expect(found.ok).toBe(false)
    const file = found.scenarioFile as string
    const r = await run(['replay', file, '--no-report'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`(trace ${(found.traceHash as string).slice(0, 16)})`)
    const anonymous = join(dir, 'anon.json')
    const text = JSON.parse(readFileSync(file, 'utf8'))
    delete text.harness
    text.name = 'my-reporter'
    writeFileSync(anonymous, JSON.stringify(text))
    const missing = await run(['replay', anonymous, '--no-report'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("found against 'my-reporter'; pass --client <module> exporting 'reporter'")
  })
})
