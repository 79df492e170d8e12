import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as propTest } from '@fast-check/vitest'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  assertRun,
  buggyUsageReporters,
  checkUsageReporter,
  harnessCommands,
  readScenarioFile,
  referenceSyncUsageReporter,
  referenceUsageReporter,
  runProgram,
  startRun,
  usageProgram,
} from '../src/harness/index.js'

const dir = mkdtempSync(join(tmpdir(), 'service-sim-usage-'))

describe('usage reporter properties', () => {
  it('the reference reporter bills every acknowledged usage exactly once under scheduled faults', async () => {
    const result = await checkUsageReporter(referenceUsageReporter, { numRuns: 40 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('the sync reference reporter bills every acknowledged usage exactly once (duplicate_meter_event on a retry is success)', async () => {
    const result = await checkUsageReporter(referenceSyncUsageReporter, { numRuns: 30, seed: 11 })
    expect(result.violations ?? []).toEqual([])
  })

  it('both references pass with every fault kind enabled (1,000 programs once by hand; fewer in CI)', async () => {
    const faultKinds = [...(await import('../src/faults/faults-schema.js')).faultKinds]
    const stream = await checkUsageReporter(referenceUsageReporter, { numRuns: 25, seed: 12, workload: { faultKinds } })
    const sync = await checkUsageReporter(referenceSyncUsageReporter, { numRuns: 25, seed: 13, workload: { faultKinds } })
    expect([stream.violations ?? [], sync.violations ?? []]).toEqual([[], []])
  })

  it('the reference reporter passes under the realistic preset with swarm rates', async () => {
    const realistic = await checkUsageReporter(referenceUsageReporter, { numRuns: 15, faults: { preset: 'realistic' }, seed: 7 })
    const swarm = await checkUsageReporter(referenceUsageReporter, { numRuns: 15, faults: { swarm: true }, seed: 8 })
    expect([realistic.violations ?? [], swarm.violations ?? []]).toEqual([[], []])
  })

  for (const variant of buggyUsageReporters) {
    it(`catches the reporter that ${variant.mistake}, under the default options, shrunk to a handful of steps, replayable from its file`, async () => {
      const result = await checkUsageReporter(variant.factory, { scenarioDir: dir, name: variant.name })
      expect(result.ok).toBe(false)
      const program = result.counterexample
      if (program === undefined || result.scenarioFile === undefined) throw new Error('no counterexample')
      expect(program.steps.length).toBeLessThanOrEqual(10)
      expect(program.faults.length).toBeLessThanOrEqual(2)
      expect(result.violations?.[0]?.witness.length).toBeGreaterThan(0)
      const saved = readScenarioFile(result.scenarioFile)
      const replay = await runProgram(saved.program, { reporter: variant.factory, faults: saved.faults })
      expect(replay.traceHash).toBe(result.traceHash)
    })
  }
})

describe('@fast-check/vitest preset', () => {
  propTest.prop([usageProgram({ maxSteps: 6 })], { numRuns: 10, seed: 3 })(
    'assertRun is a test.prop body: the reference reporter holds',
    (program) => assertRun(program, { reporter: referenceUsageReporter }),
  )
})

describe('model-based commands', () => {
  it('drive the reference clients through fc.asyncModelRun without violations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1000 }),
        fc.commands(harnessCommands(), { maxCommands: 12 }),
        async (seed, cmds) => {
          const run = startRun(seed, {
            reporter: referenceUsageReporter,
            webhook: (await import('../src/harness/index.js')).referenceWebhookReceiver,
          })
          await fc.asyncModelRun(() => ({ model: { units: 0, events: 0, faults: 0 }, real: run }), cmds)
          const report = await run.finish()
          expect(report.violations).toEqual([])
        },
      ),
      { numRuns: 10, seed: 5 },
    )
  })
})
