import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

setFlagsFromString('--expose-gc')
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void

describe('forks made in one synchronous loop', () => {
  it('are freed as soon as nothing holds them, not when the loop ends', () => {
    const sim = createSimulator({ seed: 3 })
    gc()
    const before = process.memoryUsage().heapUsed
    // A WeakRef keeps its target alive until the current job ends: a fork whose own clock held its
    // scheduler weakly stayed alive (about 90 KB each here) until the loop returned.
    for (let k = 0; k < 300; k++) sim.fork()
    gc()
    const held = process.memoryUsage().heapUsed - before
    expect(held).toBeLessThan(8_000_000)
  })
})
