import { describe, expect, it } from 'vitest'
import { createSimulator, type SimulatorOptions } from '../../src/index.js'

describe('createSimulator options', () => {
  it('refuses a misspelt option naming the one meant, instead of running with the default', () => {
    expect(() => createSimulator({ headerPerfix: 'Stripe' } as SimulatorOptions)).toThrow(
      "createSimulator: unknown option 'headerPerfix'; did you mean 'headerPrefix'?",
    )
    expect(() => createSimulator({ seed: 1, apiversion: '2022-11-15' } as SimulatorOptions)).toThrow("did you mean 'apiVersion'?")
  })

  it('refuses an option nothing resembles, listing the options', () => {
    expect(() => createSimulator({ colour: 'blue' } as SimulatorOptions)).toThrow(
      /unknown option 'colour'; the options are 'seed', 'start', .*'limits', 'from'/,
    )
  })

  it('takes every documented option, and a snapshot carries its options back in', () => {
    const sim = createSimulator({
      seed: 1,
      start: '2026-01-01T00:00:00.000Z',
      clock: 'local',
      headerPrefix: 'Stripe',
      apiVersion: '2022-11-15',
      serviceTime: 0,
      traceLimit: 1000,
      resumableTrace: true,
      faults: {},
      limits: false,
    })
    expect(createSimulator({ from: sim.snapshot() }).trace.hash()).toBe(sim.trace.hash())
  })
})
