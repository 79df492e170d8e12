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

  it('keeps the methods of sim.trace and sim.faults working when taken off them', async () => {
    const { sim, auth } = setup({ faults: { schedule: [{ step: 1, fault: 'indeterminate' }] } })
    const { hash, entries, filter, toJsonl, subscribe } = sim.trace
    const seen: string[] = []
    subscribe((e) => seen.push(e.kind))
    expect((await sim.fetch(`${API}/v1/customers`, { method: 'POST', headers: auth })).status).toBe(200)
    expect(hash()).toBe(sim.trace.hash())
    expect(entries().length).toBe(sim.trace.length)
    expect(filter('http').length).toBe(sim.trace.filter('http').length)
    expect(filter('http').length).toBeGreaterThan(0)
    expect(toJsonl()).toBe(sim.trace.toJsonl())
    expect(seen.length).toBeGreaterThan(0)
    const { step, fired, configured, rates, setRates, clear } = sim.faults
    step(1)
    expect(configured()).toContain('indeterminate')
    setRates({ indeterminate: 0.5 })
    expect(rates()).toEqual({ indeterminate: 0.5 })
    expect(typeof fired()).toBe('object')
    clear()
    expect(rates()).toEqual({})
  })
})
