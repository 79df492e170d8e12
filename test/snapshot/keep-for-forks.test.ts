import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keepForForks } from '../../src/simulator/create-simulator.js'
import { form, run, setUp, stepArb } from './helpers.js'

// A prepared simulator that is only forked makes its capture once and every fork loads it. The
// forks must be exactly what forks made the usual way are, and stay apart from each other.

describe('keepForForks: one capture for every fork of a prepared simulator', () => {
  it('gives forks the answers and trace hashes of forks that capture anew, whatever ran in earlier forks (property)', async () => {
    const kept = await setUp(4)
    await form(kept, '/v1/customers', { name: 'flaky bob' })
    await kept.settle()
    keepForForks(kept)
    const usual = await setUp(4)
    await form(usual, '/v1/customers', { name: 'flaky bob' })
    await usual.settle()
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), fc.array(stepArb, { maxLength: 10 }), async (seed, steps) => {
        const next = { seed, faults: { preset: 'realistic' as const } }
        const a = kept.fork(next)
        const b = usual.fork(next)
        for (const [i, step] of steps.entries()) {
          a.faults.step(i + 1)
          b.faults.step(i + 1)
          const answer = (sim: typeof a) => run(sim, step).catch((e: unknown) => `thrown ${String(e)}`)
          expect(await answer(a)).toBe(await answer(b))
        }
        await a.service.kernel.scheduler.advance(a.clock.now + 3 * 86_400_000)
        await b.service.kernel.scheduler.advance(b.clock.now + 3 * 86_400_000)
        expect(a.trace.hash()).toBe(b.trace.hash())
        expect(JSON.stringify(a.snapshot().state)).toBe(JSON.stringify(b.snapshot().state))
      }),
      { numRuns: 20, seed: 5 },
    )
  })

  it('leaves the kept simulator as it was, and a fork after a change to it sees the change', async () => {
    const kept = await setUp(6)
    await kept.settle()
    keepForForks(kept)
    const before = JSON.stringify(kept.snapshot())
    const first = kept.fork({ seed: 1 })
    await form(first, '/v1/customers', { name: 'in the fork' })
    await first.service.kernel.scheduler.advance(first.clock.now + 86_400_000)
    expect(JSON.stringify(kept.snapshot())).toBe(before)
    const names = (sim: typeof kept) => sim.service.customers.list({ account: sim.platform.id, mode: 'test' }).map((c) => c.name)
    expect(names(kept.fork({ seed: 2 }))).toEqual([])
    await form(kept, '/v1/customers', { name: 'in the original' })
    expect(names(kept.fork({ seed: 3 }))).toEqual(['in the original'])
  })
})
