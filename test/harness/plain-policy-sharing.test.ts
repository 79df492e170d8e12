import { describe, expect, it } from 'vitest'
import { defaultFaultParams } from '../../src/harness/index.js'
import { createSimulator } from '../../src/index.js'

// A plain fault policy is resolved once per process and shared frozen by every simulator on it.
// Freezing it must not freeze anything a caller holds: the exported defaults stay as they were.

describe('plain fault policies shared across simulators', () => {
  it('leaves the exported default fault parameters unfrozen after a simulator resolves a plain policy', () => {
    createSimulator({ seed: 1 })
    createSimulator({ seed: 2, faults: { preset: 'realistic' } })
    for (const params of Object.values(defaultFaultParams)) expect(Object.isFrozen(params)).toBe(false)
  })

  it('gives every simulator on the same plain policy the same rates, which a fork cannot change', () => {
    const a = createSimulator({ seed: 1, faults: { preset: 'realistic' } })
    const b = a.fork({ seed: 9, faults: { preset: 'realistic' } })
    b.faults.setRates({ rate_limit: 1 })
    expect(a.faults.rates().rate_limit).toBe(0.03)
    expect(createSimulator({ seed: 3, faults: { preset: 'realistic' } }).faults.policy.rates.rate_limit).toBe(0.03)
  })
})
