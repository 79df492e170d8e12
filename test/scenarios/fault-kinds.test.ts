import { describe, expect, it } from 'vitest'
import { faultKinds } from '../../src/faults/faults-schema.js'
import { parseScenarioText } from '../../src/harness/scenario/load-scenario.js'
import { runScenario } from '../../src/harness/scenario/run-scenario.js'

const HOOKS = `
setup:
  destinations:
    - { name: hooks, url: "https://hooks.example.test/h", events_from: ["@accounts"], enabled_events: [account.updated] }
  receivers:
    - { name: hooks, url: "https://hooks.example.test/h", destination: hooks }
`
const CREATE = '  - request: { method: POST, path: /v1/accounts, body: { type: custom } }\n'
const STREAM = `  - request: { method: POST, path: /v2/billing/meter_event_session, save: s }
  - request:
      method: POST
      path: /v2/billing/meter_event_stream
      token: "{{s.authentication_token}}"
      body: { events: [{ event_name: api_call, identifier: e1, payload: { service_customer_id: c, value: "1" } }] }
`

/** One scenario per fault kind: the fault scheduled at step 1 and an expectation that shows its effect. */
const cases: Record<(typeof faultKinds)[number], string> = {
  session_expiry: `workload:\n${STREAM}faults: { schedule: [{ step: 2, fault: session_expiry }] }
expectations: { outcomes: { "401 billing_meter_event_session_expired": 1 } }`,
  receiver_down: `${HOOKS}workload:\n${CREATE}  - advance: 1m\nfaults: { schedule: [{ step: 1, fault: receiver_down, status: 503 }] }
expectations: { receivers: { hooks: { statuses: { "503": { min: 1 } }, accepted: 0 } } }`,
  receiver_up: `${HOOKS.replace('destination: hooks }', 'destination: hooks, state: down }')}workload:\n${CREATE}  - advance: 30m
faults: { schedule: [{ step: 2, fault: receiver_up }] }
expectations: { receivers: { hooks: { accepted: 1 } } }`,
  receiver_slow: `${HOOKS}workload:\n${CREATE}  - advance: 1m\nfaults: { schedule: [{ step: 1, fault: receiver_slow, delay: 20s }] }
expectations: { deliveries: { hooks: { delivered: 0, pending: 1 } }, trace: [{ kind: delivery.attempt, count: 1 }] }`,
  rate_limit: `workload:\n  - request: { path: /v1/account }\nfaults: { schedule: [{ step: 1, fault: rate_limit, reason: endpoint-concurrency }] }
expectations: { outcomes: { "429 endpoint-concurrency": 1 } }`,
  lock_timeout: `workload:\n  - request: { path: /v1/account }\nfaults: { schedule: [{ step: 1, fault: lock_timeout }] }
expectations: { outcomes: { "429 lock_timeout": 1 } }`,
  duplicate_delivery: `${HOOKS}workload:\n${CREATE}  - advance: 1m\nfaults: { schedule: [{ step: 1, fault: duplicate_delivery }] }
expectations: { receivers: { hooks: { attempts: 2, unique: 1, processed: 1 } } }`,
  reorder_delivery: `${HOOKS}workload:\n${CREATE}  - advance: 2s\n${CREATE}  - advance: 1m
faults: { schedule: [{ step: 1, fault: reorder_delivery, delay: 10s }] }
expectations: { receivers: { hooks: { out_of_order: 1 } } }`,
  delay_delivery: `${HOOKS}workload:\n${CREATE}  - advance: 2s\n  - advance: 1m\nfaults: { schedule: [{ step: 1, fault: delay_delivery, delay: 30s }] }
expectations: { trace: [{ kind: delivery.attempt, count: 1 }] }`,
  concurrent_conflict: `workload:\n  - request: { path: /v1/account }\nfaults: { schedule: [{ step: 1, fault: concurrent_conflict }] }
expectations: { outcomes: { "409 too_many_concurrent_requests": 1 } }`,
  server_error: `workload:\n  - request: { path: /v1/account }\nfaults: { schedule: [{ step: 1, fault: server_error }] }
expectations: { outcomes: { "500": 1 } }`,
  indeterminate: `workload:\n  - request: { method: POST, path: /v1/customers, body: { email: a@example.com } }
  - request: { path: /v1/customers }
    expect: { body: { data.0.email: a@example.com } }
faults: { schedule: [{ step: 1, fault: indeterminate }] }
expectations: { outcomes: { "0 network_error": 1 } }`,
  slow_processing: `setup: { meters: [{ name: m, event_name: api_call }] }\nworkload:\n${STREAM}  - advance: 5m
faults: { schedule: [{ step: 2, fault: slow_processing, delay: 10m }] }
expectations: { trace: [{ kind: fault, count: 1 }] }`,
  replay_delivery: `${HOOKS}workload:\n${CREATE}  - advance: 1s\n  - advance: 10m\nfaults: { schedule: [{ step: 3, fault: replay_delivery }] }
expectations: { receivers: { hooks: { replays: 1, replays_accepted: 0 } } }`,
  redundant_event: `${HOOKS}workload:\n${CREATE}  - advance: 1m\nfaults: { schedule: [{ step: 1, fault: redundant_event, operation: account.updated }] }
expectations: { receivers: { hooks: { attempts: 2, unique: 2 } } }`,
}

describe('fault kinds in scenarios', () => {
  for (const kind of faultKinds) {
    it(`applies ${kind} for real through the fault engine`, async () => {
      const result = await runScenario(parseScenarioText(`name: f\n${cases[kind]}\n`, `${kind}.yaml`))
      const fired = result.faults.filter((f) => f.fault === kind)
      expect(fired.length).toBeGreaterThan(0)
      expect(fired.every((f) => f.applied)).toBe(true)
      expect(result.verdicts.filter((v) => !v.ok)).toEqual([])
    })
  }

  it('reports a scheduled fault that never fired as a violated expectation', async () => {
    const text =
      'name: f\nworkload:\n  - request: { path: /v1/account }\nfaults: { schedule: [{ step: 1, fault: lock_timeout, operation: customers.update }] }\n'
    const result = await runScenario(parseScenarioText(text, 'quiet.yaml'))
    expect(result.verdicts.find((v) => v.name === 'faults fired')).toMatchObject({
      ok: false,
      message: 'scheduled but never fired: lock_timeout',
    })
  })

  it('reports a receiver fault with no receiver to act on as not applied', async () => {
    const text =
      'name: f\nworkload:\n  - request: { path: /v1/account }\nfaults: { schedule: [{ step: 1, fault: receiver_down, receiver: nobody }] }\n'
    const result = await runScenario(parseScenarioText(text, 'nobody.yaml'))
    expect(result.faults).toMatchObject([{ fault: 'receiver_down', applied: false }])
    expect(result.ok).toBe(false)
  })
})
