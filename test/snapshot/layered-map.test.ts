import { describe, expect, it } from 'vitest'
import { LayeredMap } from '#kernel/layered-map.js'

describe('LayeredMap', () => {
  it('forks independent copies, before and after folding', () => {
    const a = new LayeredMap<string, number>()
    for (let i = 0; i < 10; i++) a.set(`k${i}`, i)
    const b = a.fork()
    a.set('k1', 100)
    a.delete('k2')
    b.set('k3', 300)
    b.delete('k4')
    expect([a.get('k1'), a.has('k2'), a.get('k3'), a.get('k4')]).toEqual([100, false, 3, 4])
    expect([b.get('k1'), b.get('k2'), b.get('k3'), b.has('k4')]).toEqual([1, 2, 300, false])
    for (let i = 0; i < 200; i++) a.set(`n${i}`, i)
    const c = a.fork()
    a.delete('n5')
    c.set('n6', -1)
    expect([a.has('n5'), a.get('n6'), c.get('n5'), c.get('n6'), c.has('k2'), c.get('k1')]).toEqual([false, 6, 5, -1, false, 100])
    expect(a.delete('k2')).toBe(false)
    expect(b.get('n1')).toBeUndefined()
  })
})
