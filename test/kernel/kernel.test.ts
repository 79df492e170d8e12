import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../src/kernel/canonical-json.js'
import { createClock } from '../../src/kernel/clock.js'
import { createIds } from '../../src/kernel/ids.js'
import { PriorityQueue } from '../../src/kernel/priority-queue.js'
import { createRng } from '../../src/kernel/rng.js'
import { createScheduler } from '../../src/kernel/scheduler.js'
import { createTrace, traceRecord, type UntypedKinds } from '../../src/kernel/trace.js'

describe('PriorityQueue', () => {
  it('pops by due time and keeps insertion order among equal times', () => {
    const q = new PriorityQueue<string>()
    q.push(10, 'b1')
    q.push(5, 'a')
    q.push(10, 'b2')
    q.push(1, 'z')
    q.push(10, 'b3')
    const out: string[] = []
    while (q.size > 0) out.push(q.pop()?.value ?? '')
    expect(out).toEqual(['z', 'a', 'b1', 'b2', 'b3'])
  })
})

describe('scheduler', () => {
  it('runs due work in order as the clock jumps from item to item', async () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    const log: string[] = []
    s.at(3000, 'c', () => void log.push(`c@${clock.now}`))
    s.at(1000, 'a', () => void log.push(`a@${clock.now}`))
    const b = s.at(2000, 'b', () => void log.push(`b@${clock.now}`))
    s.cancel(b)
    expect(s.pending).toBe(2)
    await clock.runToLastAsync()
    expect(log).toEqual(['a@1000', 'c@3000'])
    expect(s.pending).toBe(0)
  })

  it('settle() runs what is due now and waits for its async work, not what is due later', async () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    const log: string[] = []
    s.after(0, 'now', async () => {
      await Promise.resolve()
      log.push('now')
    })
    s.after(1, 'later', () => void log.push('later'))
    await s.settle()
    expect(log).toEqual(['now'])
  })
})

describe('rng', () => {
  it('gives each named stream its own sequence, stable per seed', () => {
    const a = createRng(1)
    const b = createRng(1)
    b.stream('faults').next()
    expect(a.stream('ids').next()).toBe(b.stream('ids').next())
    expect(createRng(2).stream('ids').next()).not.toBe(createRng(1).stream('ids').next())
  })

  it('continues a saved position, and restarts from a new seed, as an untouched generator would', () => {
    const drawn = createRng(3)
    drawn.stream('ids').next()
    drawn.stream('faults')
    const saved = drawn.save()
    const loaded = createRng('other')
    loaded.load(saved)
    // Saved again before any draw: the same positions.
    expect(loaded.save()).toEqual(saved)
    expect(loaded.stream('ids').next()).toBe(drawn.stream('ids').next())
    expect(loaded.stream('faults').next()).toBe(drawn.stream('faults').next())
    loaded.reseed(8)
    expect(loaded.stream('ids').next()).toBe(createRng(8).stream('ids').next())
    const fresh = createRng(8)
    fresh.stream('faults')
    expect(loaded.save().faults).toEqual(fresh.save().faults)
  })

  it('makes ids with the provider prefix and base-62 body', () => {
    const ids = createIds(createRng(9).stream('ids'))
    expect(ids.next('cus')).toMatch(/^cus_[0-9A-Za-z]{14}$/)
    expect(ids.next('whsec', 32)).toMatch(/^whsec_[0-9A-Za-z]{32}$/)
  })
})

describe('trace', () => {
  it('hashes equal runs equally and any change of data differently', () => {
    const make = (v: number) => {
      const t = createTrace<UntypedKinds>({ now: () => 0 })
      t.append('x', { a: 1, b: { c: v, d: 3 } })
      t.append('y', {}, { body: 'z'.repeat(100) })
      return t.hash()
    }
    expect(make(2)).toBe(make(2))
    expect(make(2)).not.toBe(make(3))
    expect(canonicalJson({ b: 1, a: [true, { d: 2, c: 3 }] })).toBe('{"a":[true,{"c":3,"d":2}],"b":1}')
  })

  it('hashes raw members by content and boundary, so moving bytes between them changes the hash', () => {
    const a = createTrace<UntypedKinds>({ now: () => 0 })
    const b = createTrace<UntypedKinds>({ now: () => 0 })
    a.append('http', {}, { request: 'ab', response: 'c' })
    b.append('http', {}, { request: 'a', response: 'bc' })
    expect(a.hash()).not.toBe(b.hash())
    expect(a.entries()[0]?.data.request).toBe('ab')
  })

  it('hashes the same records to the same digest chain whenever hash() is asked and however large the entries', () => {
    const records: string[] = []
    const asked = createTrace<UntypedKinds>({ now: () => 5 })
    const quiet = createTrace<UntypedKinds>({ now: () => 5 })
    for (let i = 0; i < 300; i++) {
      // Multi-byte text and entries large enough to cross several batches.
      const body = `é€😀${'x'.repeat((i * 997) % 4000)}`
      const data = { i, s: '\ud83d' }
      asked.append('n', data, { body })
      quiet.append('n', data, { body })
      records.push(`${traceRecord(i, 5, 'n', data, { body })}\n`)
      if (i % 7 === 0) asked.hash()
    }
    // The documented chain, spelled out: a batch ends at the record that takes it to 64 Ki
    // characters; each digest covers the previous one's hex and the batch.
    let chain = ''
    let batch = ''
    for (const r of records) {
      batch += r
      if (batch.length >= 64 * 1024) {
        chain = createHash('sha256')
          .update(chain + batch)
          .digest('hex')
        batch = ''
      }
    }
    expect(chain).not.toBe('')
    const expected = createHash('sha256')
      .update(chain + batch)
      .digest('hex')
    expect(asked.hash()).toBe(expected)
    expect(quiet.hash()).toBe(expected)
  })

  it('never reads two different entries as the same record (length-prefixed members, any text)', () => {
    // Delimiters of the encoding itself are the likely inputs to confuse it.
    const text = fc.string({ unit: fc.constantFrom('a', ':', 's', 'n', ';', '1', '2', '{', '}', '\u0000', 'é') })
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 2 }),
      fc.dictionary(text, text, { maxKeys: 2 }),
      fc.dictionary(text, fc.integer(), { maxKeys: 2 }),
    )
    const data = fc.dictionary(text, value, { maxKeys: 3 })
    fc.assert(
      fc.property(data, data, fc.option(text, { nil: undefined }), (a, b, body) => {
        const raw = body === undefined ? undefined : { body }
        const same = traceRecord(0, 1, 'k', a, raw) === traceRecord(0, 1, 'k', b, raw)
        expect(same).toBe(JSON.stringify(a) === JSON.stringify(b))
      }),
      { numRuns: 2000, seed: 7 },
    )
  })

  it('keeps hashing every entry when a limit drops old ones from memory', () => {
    const full = createTrace<UntypedKinds>({ now: () => 0 })
    const limited = createTrace<UntypedKinds>({ now: () => 0, limit: 2 })
    for (let i = 0; i < 10; i++) {
      full.append('n', { i })
      limited.append('n', { i })
    }
    expect(limited.entries()).toHaveLength(2)
    expect(limited.length).toBe(10)
    expect(limited.hash()).toBe(full.hash())
  })
})

describe('scheduler and runToLastAsync', () => {
  it('reaches work scheduled later than the first timer', async () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    const log: number[] = []
    s.at(10, 'x', () => {
      log.push(clock.now)
      s.at(50, 'y', () => void log.push(clock.now))
    })
    s.at(30, 'z', () => void log.push(clock.now))
    await clock.runToLastAsync()
    await clock.runToLastAsync()
    expect(log).toEqual([10, 30, 50])
  })
})

describe('scheduler horizon', () => {
  it('does not drag the clock to the time of a cancelled task', async () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    s.at(10, 'work', () => {})
    const later = s.at(72 * 3600_000, 'retry horizon', () => {})
    s.cancel(later)
    await clock.runToLastAsync()
    expect(clock.now).toBe(10)
  })
})

describe('scheduler memory', () => {
  it('keeps memory proportional to live work when ever later tasks keep arriving', async () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    // A long-lived task (a 24 h sweep) stays the latest while short work runs beneath it.
    s.after(24 * 3600_000, 'sweep', () => {})
    for (let i = 0; i < 20_000; i++) {
      s.after(10, 'work', () => {})
      await s.advance(clock.now + 10)
    }
    expect(s.pending).toBe(1)
    expect(s.retained).toBeLessThan(2500)
  })
})
