import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { continueAs } from '../../src/simulator/create-simulator.js'
import { run, setUp, stepArb } from './helpers.js'

describe('fork(next): a prepared simulator goes on with another seed and fault policy', () => {
  it('answers and hashes like the same simulator continued in place, and its snapshot carries the new seed (property)', async () => {
    const prepared = await setUp(3)
    await prepared.settle()
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), fc.array(stepArb, { maxLength: 12 }), async (seed, steps) => {
        const faults = { preset: 'realistic' as const, schedule: [{ step: 1, fault: 'lock_timeout' as const }] }
        const forked = prepared.fork({ seed, faults })
        const inPlace = await setUp(3)
        await inPlace.settle()
        continueAs(inPlace, { seed, faults })
        expect(forked.seed).toBe(String(seed))
        const loaded = createSimulator({ from: JSON.parse(JSON.stringify(forked.snapshot())) })
        const { receivers } = forked
        for (const url of receivers.urls())
          loaded.receivers.mount(url, receivers.get(url) as NonNullable<ReturnType<typeof receivers.get>>)
        for (const [i, step] of steps.entries()) {
          for (const sim of [forked, inPlace, loaded]) sim.faults.step(i + 1)
          // A dropped answer (the realistic preset's indeterminate fault) is an answer too.
          const answer = (sim: typeof forked) => run(sim, step).catch((e: unknown) => `thrown ${String(e)}`)
          const answers = [await answer(forked), await answer(inPlace), await answer(loaded)]
          expect(answers[1]).toBe(answers[0])
          expect(answers[2]).toBe(answers[0])
        }
        expect(inPlace.trace.hash()).toBe(forked.trace.hash())
        expect(loaded.trace.hash()).toBe(forked.trace.hash())
      }),
      { numRuns: 15, seed: 11 },
    )
  })

  it('refuses a seed that is neither a finite number nor a string', () => {
    const sim = createSimulator()
    expect(() => sim.fork({ seed: Number.NaN })).toThrow(/'seed' must be a finite number or a string/)
  })
})
