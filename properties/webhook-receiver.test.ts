import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  buggyWebhookReceivers,
  checkWebhookReceiver,
  readScenarioFile,
  referenceWebhookReceiver,
  runProgram,
} from '../src/harness/index.js'

const dir = mkdtempSync(join(tmpdir(), 'service-sim-webhook-'))

describe('webhook receiver properties', () => {
  it('the reference receiver causes each side effect once per event, whatever the order and the duplicates', async () => {
    const result = await checkWebhookReceiver(referenceWebhookReceiver, { numRuns: 40 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('the reference receiver passes under the realistic preset', async () => {
    const result = await checkWebhookReceiver(referenceWebhookReceiver, { numRuns: 20, faults: { preset: 'realistic' }, seed: 9 })
    expect(result.violations ?? []).toEqual([])
  })

  it('the reference receiver passes with every fault kind enabled (1,000 programs once by hand; fewer in CI)', async () => {
    const faultKinds = [...(await import('../src/faults/faults-schema.js')).faultKinds]
    const result = await checkWebhookReceiver(referenceWebhookReceiver, { numRuns: 25, seed: 14, workload: { faultKinds } })
    expect(result.violations ?? []).toEqual([])
  })

  for (const variant of buggyWebhookReceivers) {
    it(`catches the receiver that ${variant.mistake}, under the default options, shrunk to a handful of steps, replayable from its file`, async () => {
      const result = await checkWebhookReceiver(variant.factory, { scenarioDir: dir, name: variant.name })
      expect(result.ok).toBe(false)
      const program = result.counterexample
      if (program === undefined || result.scenarioFile === undefined) throw new Error('no counterexample')
      expect(program.steps.length).toBeLessThanOrEqual(10)
      expect(program.faults.length).toBeLessThanOrEqual(2)
      const saved = readScenarioFile(result.scenarioFile)
      const replay = await runProgram(saved.program, { webhook: variant.factory, faults: saved.faults })
      expect(replay.traceHash).toBe(result.traceHash)
    })
  }
})
