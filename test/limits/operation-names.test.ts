import { describe, expect, it } from 'vitest'
import { parseScenarioText } from '../../src/harness/scenario/load-scenario.js'
import { createSimulator } from '../../src/index.js'
import { call, sequential } from './helpers.js'

/**
 * One name per operation, the official client's, wherever a user names one: a name from before
 * (`payment_intents.create`) would match nothing and silently limit or fault nothing, so it is
 * refused at the boundary with the name to use instead.
 */
describe('operation names users write', () => {
  it('refuses a limit row naming a former operation name, with the catalogue name to use', () => {
    expect(() =>
      createSimulator({
        seed: 1,
        limits: { rows: [{ id: 'pi', scope: 'endpoint', kind: 'rate', max: 1, operations: ['payment_intents.create'] }] },
      }),
    ).toThrow(
      "createSimulator: option 'limits.rows.0.operations.0': unknown operation 'payment_intents.create'; did you mean 'paymentIntents.create'?",
    )
  })

  it('refuses a read exclusion glob over a former name and a typo that matches nothing', () => {
    expect(() => createSimulator({ seed: 1, limits: { reads: { excluded: ['tax_rates.*'] } } })).toThrow(
      "unknown operation 'tax_rates.*'; did you mean 'taxRates.*'?",
    )
    expect(() => createSimulator({ seed: 1, limits: { reads: { excluded: ['custmers.*'] } } })).toThrow(
      "option 'limits.reads.excluded.0': unknown operation 'custmers.*' (no operation matches",
    )
  })

  it('names the v2 operation a former meter event name meant', () => {
    expect(() =>
      createSimulator({
        seed: 1,
        limits: { rows: [{ id: 'mev', scope: 'endpoint', kind: 'rate', max: 1, operations: ['billing.meter_events.create'] }] },
      }),
    ).toThrow("did you mean 'v2.billing.meterEvents.create'?")
  })

  it('refuses a request fault aimed at a former name, in the faults option and in sim.admin.injectFault', () => {
    expect(() =>
      createSimulator({
        seed: 1,
        faults: { schedule: [{ step: 1, fault: 'rate_limit', operation: 'billing.meter_event_stream' }] },
      }),
    ).toThrow(
      "createSimulator: option 'faults.schedule.0.operation': unknown operation 'billing.meter_event_stream'; did you mean 'v2.billing.meterEventStream'?",
    )
    const sim = createSimulator({ seed: 1 })
    expect(() => sim.admin.injectFault({ fault: 'lock_timeout', operation: 'payment_intents.update' })).toThrow(
      "admin.injectFault: option 'operation': unknown operation 'payment_intents.update'; did you mean 'paymentIntents.update'?",
    )
  })

  it('still reads a delivery fault target as an event type', () => {
    expect(() =>
      createSimulator({
        seed: 1,
        faults: { schedule: [{ step: 1, fault: 'duplicate_delivery', operation: 'payment_intent.succeeded' }] },
      }),
    ).not.toThrow()
  })

  it('refuses a scenario file whose fault or limit row names a former operation, with its path', () => {
    const faults =
      'name: f\nworkload: []\nfaults: { schedule: [{ step: 1, fault: server_error, operation: payment_intents.create }] }\n'
    expect(() => parseScenarioText(faults, 'f.yaml')).toThrow(
      "unknown operation 'payment_intents.create'; did you mean 'paymentIntents.create'?",
    )
    const limits =
      'name: l\nworkload: []\nlimits: { rows: [{ id: x, scope: endpoint, kind: rate, max: 1, operations: [balance_transactions.list] }] }\n'
    expect(() => parseScenarioText(limits, 'l.yaml')).toThrow(
      /limits\.rows\[0\]\.operations\[0\].*did you mean 'balanceTransactions\.list'/s,
    )
  })

  it('limits an operation by the catalogue name the trace records for it', async () => {
    const sim = createSimulator({
      seed: 3,
      limits: { rows: [{ id: 'balance-tx', scope: 'endpoint', kind: 'rate', max: 1, operations: ['balanceTransactions.list'] }] },
    })
    expect(await sequential(2, () => call(sim, 'test', 'GET', '/v1/balance_transactions'))).toEqual([200, 429])
    expect(sim.trace.filter('http').at(-1)?.data.operation).toBe('balanceTransactions.list')
  })

  it('counts no tax rate read against the read allocation, as the exclusions say', async () => {
    const sim = createSimulator({ seed: 4, limits: { reads: { minimum: 1 } } })
    expect(await sequential(3, () => call(sim, 'test', 'GET', '/v1/tax_rates'))).toEqual([200, 200, 200])
    expect(sim.admin.readsUsed(sim.platform.id, 'test')).toBe(0)
    expect(await sequential(2, () => call(sim, 'test', 'GET', '/v1/customers'))).toEqual([200, 429])
  })
})
