import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createIds } from '../../src/kernel/ids.js'
import { createRng } from '../../src/kernel/rng.js'
import { createTrace, traceInternals, type UntypedKinds } from '../../src/kernel/trace.js'

describe('trace storage (entries made on first read)', () => {
  it('gives the entries appended before and after a read, in order, with their seq, time, kind and data', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'b.c'), fc.integer({ min: 0, max: 9 }), fc.boolean()), { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (steps, limit) => {
          let now = 0
          const trace = createTrace<UntypedKinds>({ now: () => now, limit })
          const appended: { seq: number; at: number; kind: string; data: Record<string, unknown> }[] = []
          for (const [kind, n, read] of steps) {
            now += n
            const e = trace.append(kind, { n })
            appended.push({ seq: e.seq, at: e.at, kind, data: { n } })
            if (read) expect(trace.entries()).toEqual(appended.slice(-limit))
          }
          expect(trace.entries()).toEqual(appended.slice(-limit))
          expect(trace.filter('b')).toEqual(appended.slice(-limit).filter((e) => e.kind.startsWith('b')))
          expect(trace.length).toBe(steps.length)
        },
      ),
    )
  })

  it('returns the same entry objects on every read', () => {
    const trace = createTrace<UntypedKinds>({ now: () => 1 })
    trace.append('a', { n: 1 })
    const first = trace.entries()[0]
    trace.append('a', { n: 2 })
    expect(trace.entries()[0]).toBe(first)
    expect(trace.entries()[1]).toBe(trace.entries()[1])
  })

  it('a fork continues with the same entries and hash, and neither side sees the other later', () => {
    const trace = createTrace<UntypedKinds>({ now: () => 5, limit: 4 })
    for (let i = 0; i < 10; i++) trace.append('x', { i })
    const fork = createTrace<UntypedKinds>({ now: () => 5, limit: 4 })
    traceInternals(fork).load(traceInternals(trace).copy())
    expect(fork.entries()).toEqual(trace.entries())
    expect(fork.hash()).toBe(trace.hash())
    trace.append('y', {})
    fork.append('z', {})
    expect(trace.entries().at(-1)?.kind).toBe('y')
    expect(fork.entries().at(-1)?.kind).toBe('z')
    expect(fork.entries().at(-1)?.seq).toBe(10)
  })

  it('hashes forks of one trace, across the 64 Ki fold, like traces that made the same appends', () => {
    const appendAll = (t: ReturnType<typeof createTrace<UntypedKinds>>, kind: string, n: number) => {
      for (let i = 0; i < n; i++) t.append(kind, { i, body: 'x'.repeat(500) })
    }
    const base = createTrace<UntypedKinds>({ now: () => 5 })
    appendAll(base, 'setup', 40)
    for (const [kind, n] of [
      ['a', 3],
      ['b', 200],
      ['a', 3],
    ] as const) {
      const fork = createTrace<UntypedKinds>({ now: () => 5 })
      traceInternals(fork).load(traceInternals(base).copy())
      const plain = createTrace<UntypedKinds>({ now: () => 5 })
      traceInternals(plain).load(JSON.parse(JSON.stringify(traceInternals(base).save())))
      appendAll(fork, kind, n)
      appendAll(plain, kind, n)
      expect(fork.hash()).toBe(plain.hash())
      // A fork of the fork, and a snapshot of it, go on with the same digest.
      const again = createTrace<UntypedKinds>({ now: () => 5 })
      traceInternals(again).load(traceInternals(fork).copy())
      appendAll(again, 'c', 1)
      appendAll(plain, 'c', 1)
      expect(again.hash()).toBe(plain.hash())
      expect(traceInternals(again).save()).toEqual(traceInternals(plain).save())
    }
    // The trace forked from is unchanged by its forks.
    const replay = createTrace<UntypedKinds>({ now: () => 5 })
    appendAll(replay, 'setup', 40)
    expect(base.hash()).toBe(replay.hash())
  })
})

describe('ids', () => {
  it('are flat strings of the prefix, an underscore and base-62 characters drawn from the stream', () => {
    const a = createIds(createRng(3).stream('ids'))
    const b = createIds(createRng(3).stream('ids'))
    for (const [prefix, length] of [
      ['cus', 14],
      ['evt', 24],
      ['whsec', 32],
      ['a_long_prefix_of_a_hundred_and_twenty_characters'.repeat(3), 14],
    ] as const) {
      const id = a.next(prefix, length)
      expect(id).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{${length}}$`))
      expect(b.next(prefix, length)).toBe(id)
    }
  })
})
