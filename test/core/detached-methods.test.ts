import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { API, setup } from './helpers.js'

describe('a simulator', () => {
  it('keeps settle, snapshot, fork, intercept and restore working when taken off it', async () => {
    const { sim, auth } = setup()
    const { settle, snapshot, fork, intercept, restore } = sim
    expect((await sim.fetch(`${API}/v1/customers`, { method: 'POST', headers: auth })).status).toBe(200)
    await settle()
    const saved = snapshot()
    expect(createSimulator({ from: saved }).trace.hash()).toBe(sim.trace.hash())
    expect(fork().trace.hash()).toBe(sim.trace.hash())
    await intercept()
    restore()
  })
})
