import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Program, webhookProgram } from '../../src/harness/index.js'

/** True when a duplicate_delivery fault comes right before an emit step: the "bug" this property hunts. */
const duplicatedEmit = (p: Program) =>
  p.faults.some((f) => f.fault === 'duplicate_delivery' && p.steps[f.step - 1]?.kind === 'emit')

describe('shrinking a program with faults', () => {
  it('drops irrelevant earlier steps (a roll_secret, an advance): the fault moves with the step it comes before', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const details = fc.check(
        fc.property(webhookProgram(), (p) => !duplicatedEmit(p)),
        { seed, numRuns: 500 },
      )
      expect(details.failed).toBe(true)
      const [p] = details.counterexample as [Program]
      // No step survives before the one that matters (fast-check may keep one trailing step).
      expect(p.steps[0]).toEqual({ kind: 'emit', object: 0 })
      expect(p.steps.length).toBeLessThanOrEqual(2)
      expect(p.faults.map((f) => [f.step, f.fault])).toEqual([[1, 'duplicate_delivery']])
    }
  })
})
