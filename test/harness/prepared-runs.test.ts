import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buggyUsageReporters,
  buggyWebhookReceivers,
  checkUsageReporter,
  checkWebhookReceiver,
  type HarnessCommand,
  harnessCommands,
  type Program,
  referenceUsageReporter,
  runProgram,
  startRun,
  type UsageReporterFactory,
} from '../../src/harness/index.js'
import type { RunReport } from '../../src/harness/run/run-program.js'
import { createSimulator } from '../../src/index.js'

const variant = <T extends { name: string }>(list: readonly T[], name: string): T => {
  const v = list.find((x) => x.name === name)
  if (v === undefined) throw new Error(`no variant ${name}`)
  return v
}

/** The trace of the setup a run started from: every entry before the run went on with its own seed. */
function setupTrace(report: RunReport): string {
  const entries = report.sim.trace.entries()
  const at = entries.findIndex((e) => e.kind === 'simulator.continued')
  return JSON.stringify(entries.slice(0, at))
}

/** A reporter that, before its reports, reads the account's meters and customers through the API (until both answer). */
function observing(seen: string[]): UsageReporterFactory {
  return (env) => {
    const inner = referenceUsageReporter(env)
    let done = false
    const get = async (path: string) => {
      const res = await env.fetch(`${env.baseUrl}${path}`, { headers: { Authorization: `Bearer ${env.secretKey}` } })
      return res.status === 200 ? ((await res.json()) as { data: unknown[] }).data : undefined
    }
    return {
      async report(units) {
        if (!done) {
          // Usage changes neither list: this is what the run started from.
          const meters = await get('/v1/billing/meters')
          const customers = await get('/v1/customers?limit=100')
          if (meters !== undefined && customers !== undefined) {
            done = true
            seen.push(JSON.stringify([meters, customers]))
          }
        }
        return inner.report(units)
      },
    }
  }
}

const program = (seed: number): Program => ({
  seed,
  steps: [
    { kind: 'report', units: 2, value: 3, customer: 1 },
    { kind: 'advance', ms: 60_000 },
    { kind: 'report', units: 1, value: 1 },
  ],
  faults: [{ step: 1, fault: 'indeterminate' }],
})

describe('property runs fork one prepared simulator', () => {
  it('starts every run of a check from the same setup state, forked or built', async () => {
    const seen: string[] = []
    const reporter = observing(seen)
    // No fault rates: the reads must answer (a drawn 429 is not the state).
    const options = { reporter }
    const forked = [await runProgram(program(1), options), await runProgram(program(2), options)]
    const built = await runProgram(program(3), { ...options, fork: false })
    const checked = await checkUsageReporter(reporter, { numRuns: 5, workload: { maxSteps: 3 } })
    expect(checked.ok).toBe(true)
    // Each run saw the setup's meter and customers through the API, identical in every run.
    expect(seen.length).toBeGreaterThanOrEqual(3)
    expect(new Set(seen).size, seen.join('\n')).toBe(1)
    const [meters, customers] = JSON.parse(seen[0] as string) as [unknown[], { name: string }[]]
    expect(meters).toHaveLength(1)
    expect(customers.map((c) => c.name).sort()).toEqual(['Harness customer 0', 'Harness customer 1', 'Harness customer 2'])
    // And the same setup trace (hashed into every run's trace hash).
    const setups = [...forked, built].map(setupTrace)
    expect(setups[0]).toContain('v1/billing/meters')
    expect(new Set(setups).size).toBe(1)
  })

  it('gives a program the same trace hash on a fork and on a simulator built for it', async () => {
    const options = { reporter: referenceUsageReporter, faults: { preset: 'realistic' as const } }
    for (const seed of [5, 6]) {
      const forked = await runProgram(program(seed), options)
      const built = await runProgram(program(seed), { ...options, fork: false })
      expect(forked.traceHash).toBe(built.traceHash)
      expect(forked.sim.trace.entries().length).toBe(built.sim.trace.entries().length)
    }
    // The program's seed still drives the run: another seed, another history.
    const a = await runProgram(program(5), options)
    const b = await runProgram(program(6), options)
    expect(a.traceHash).not.toBe(b.traceHash)
  })

  it('replays a usage counterexample to the same trace hash with and without fork', async () => {
    const reporter = variant(buggyUsageReporters, 'no-identifiers').factory as UsageReporterFactory
    const faults = { preset: 'realistic' as const }
    const result = await checkUsageReporter(reporter, { numRuns: 30, faults })
    expect(result.ok).toBe(false)
    const counterexample = result.counterexample as Program
    const forked = await runProgram(counterexample, { reporter, faults })
    const built = await runProgram(counterexample, { reporter, faults, fork: false })
    expect(forked.traceHash).toBe(result.traceHash)
    expect(built.traceHash).toBe(result.traceHash)
    expect(built.violations.map((v) => v.message)).toEqual(result.violations?.map((v) => v.message))
  })

  it('replays a webhook counterexample to the same trace hash with and without fork', async () => {
    const webhook = variant(buggyWebhookReceivers, 'no-dedup').factory
    const result = await checkWebhookReceiver(webhook, { numRuns: 30 })
    expect(result.ok).toBe(false)
    const counterexample = result.counterexample as Program
    const forked = await runProgram(counterexample, { webhook })
    const built = await runProgram(counterexample, { webhook, fork: false })
    expect(forked.traceHash).toBe(result.traceHash)
    expect(built.traceHash).toBe(result.traceHash)
  })

  it('applies a fault command given before the first step of a model run (after the setup)', async () => {
    const [report, , , , , , , , fault] = harnessCommands(['rate_limit'])
    const first = fc.sample(fault as fc.Arbitrary<HarnessCommand>, { numRuns: 1, seed: 1 })[0] as HarnessCommand
    const then = fc.sample(report as fc.Arbitrary<HarnessCommand>, { numRuns: 1, seed: 1 })[0] as HarnessCommand
    const run = startRun(3, { reporter: referenceUsageReporter })
    const model = { units: 0, events: 0, faults: 0 }
    await first.run(model, run)
    await then.run(model, run)
    const done = await run.finish()
    expect(done.violations).toEqual([])
    expect(Object.keys(done.fired).filter((k) => k.startsWith('rate_limit:'))).toHaveLength(1)
  })

  it("starts from the user's base with the setup on top, the program's schedule applying, forked or built", async () => {
    const base = createSimulator({ seed: 9 })
    await base.fetch('https://api.service.test/v1/customers', {
      method: 'POST',
      headers: { Authorization: `Bearer ${base.platform.secretKey.test}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Existing',
    })
    const seen: string[] = []
    const options = { reporter: observing(seen), base }
    const forked = await runProgram(program(4), options)
    const built = await runProgram(program(4), { ...options, fork: false })
    expect(forked.traceHash).toBe(built.traceHash)
    // The program's scheduled fault (indeterminate before step 1) fired in the run on the base.
    expect(forked.fired).toMatchObject({ indeterminate: 1 })
    const [, customers] = JSON.parse(seen[0] as string) as [unknown[], { name: string }[]]
    expect(customers.map((c) => c.name).sort()).toEqual([
      'Existing',
      'Harness customer 0',
      'Harness customer 1',
      'Harness customer 2',
    ])
  })
})
