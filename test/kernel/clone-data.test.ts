import { describe, expect, it } from 'vitest'
import { cloneData } from '../../src/kernel/clone-data.js'

function outcome(f: () => unknown): { value?: unknown; error?: string } {
  try {
    return { value: f() }
  } catch (error) {
    return { error: String(error) }
  }
}

describe('cloneData', () => {
  it('gives what structuredClone gives, for plain data and for everything it hands over', () => {
    const nullProto = Object.create(null) as Record<string, unknown>
    nullProto.a = 1
    Object.defineProperty(nullProto, '__proto__', { value: 2, enumerable: true, writable: true, configurable: true })
    const shared = { x: 1 }
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    const extra = Object.assign([1, 2], { foo: 'x' })
    const cases: unknown[] = [
      1,
      'a',
      null,
      undefined,
      -0,
      10n,
      { a: { b: [1, { c: null }] }, d: undefined },
      [],
      {},
      [[], [[]]],
      nullProto,
      { s: shared, t: shared },
      cyclic,
      // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
      [1, , 3],
      extra,
      { d: new Date(0) },
      { m: new Map([[1, 2]]) },
      { f: () => 1 },
      { s: Symbol('x') },
      new Uint8Array(2),
    ]
    for (const c of cases) {
      const want = outcome(() => structuredClone(c))
      const got = outcome(() => cloneData(c))
      expect(got).toStrictEqual(want)
      if (typeof c === 'object' && c !== null && got.value !== undefined) expect(got.value).not.toBe(c)
    }
  })

  it('copies deeply: a change to the original never reaches the copy', () => {
    const original = { a: { b: [1, { c: 'x' }] }, list: { data: [] as unknown[] } }
    const copy = cloneData(original)
    original.a.b.push(2)
    ;(original.a.b[1] as { c: string }).c = 'y'
    original.list.data.push(1)
    expect(copy).toStrictEqual({ a: { b: [1, { c: 'x' }] }, list: { data: [] } })
  })

  it('keeps shared references shared and cycles cyclic, as structuredClone does', () => {
    const shared = { x: 1 }
    const pair = cloneData({ s: shared, t: shared })
    expect(pair.s).toBe(pair.t)
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const copy = cloneData(cyclic)
    expect(copy.self).toBe(copy)
  })
})
