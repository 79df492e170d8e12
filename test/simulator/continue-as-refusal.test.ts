import { createSimulator } from 'service-sim'
import { describe, expect, it } from 'vitest'
import { continueAs } from '../../src/simulator/create-simulator.js'

// Not exported: the property runs and the billing property go on in place with it.
describe('continueAs', () => {
  it('refuses invalid faults before its trace, seed or policy change', async () => {
    const sim = createSimulator({ seed: 1 })
    const before = sim.trace.hash()
    const length = sim.trace.entries().length
    expect(() => continueAs(sim, { seed: 2, faults: { schedule: [{ step: 0, fault: 'rate_limit' }] } })).toThrow(
      /^continueAs: option 'faults\.schedule\.0\.step'/,
    )
    expect(() => continueAs(sim, { seed: 2, faults: { preset: 'wild' as never } })).toThrow(
      /^continueAs: option 'faults\.preset'/,
    )
    expect(sim.trace.entries()).toHaveLength(length)
    expect(sim.trace.hash()).toBe(before)
    // The simulator goes on as if the refused calls had not been made.
    const twin = createSimulator({ seed: 1 })
    continueAs(sim, { seed: 3 })
    continueAs(twin, { seed: 3 })
    const ask = (s: typeof sim) =>
      s.fetch('https://api.service.test/v1/customers', {
        method: 'POST',
        headers: { Authorization: `Bearer ${s.platform.secretKey.test}` },
      })
    expect((await ask(sim)).status).toBe(200)
    expect((await ask(twin)).status).toBe(200)
    expect(sim.trace.hash()).toBe(twin.trace.hash())
  })
})
