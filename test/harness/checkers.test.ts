import { describe, expect, it } from 'vitest'
import {
  buggyUsageReporters,
  buggyWebhookReceivers,
  checkDeliveries,
  referenceUsageReporter,
  runCampaign,
  runProgram,
  usageStep,
  webhookStep,
} from '../../src/harness/index.js'
import type { TraceEntry } from '../../src/kernel/trace.js'

const entry = (seq: number, kind: string, data: Record<string, unknown>, at = 0): TraceEntry => ({ seq, at, kind, data })

describe('history checkers', () => {
  it('names the two stream requests that counted an acknowledged usage twice', async () => {
    const noIds = buggyUsageReporters.find((v) => v.name === 'no-identifiers')
    const report = await runProgram(
      {
        seed: 0,
        steps: [{ kind: 'report', units: 1, value: 1 }],
        faults: [{ step: 1, fault: 'indeterminate', operation: 'billing.meter_event_stream' }],
      },
      { reporter: noIds?.factory },
    )
    const v = report.violations.find((x) => x.checker === 'usage.exactly_once')
    expect(v?.message).toBe('acknowledged usage u1 was counted 2 times')
    const requests = v?.entries.filter((e) => e.kind === 'http') ?? []
    expect(requests).toHaveLength(2)
  })

  it('finds no violation for the reference reporter under the same schedule', async () => {
    const report = await runProgram(
      {
        seed: 0,
        steps: [{ kind: 'report', units: 1, value: 1 }],
        faults: [{ step: 1, fault: 'indeterminate', operation: 'billing.meter_event_stream' }],
      },
      { reporter: referenceUsageReporter },
    )
    expect(report.violations).toEqual([])
  })

  it('names the side effects of a duplicated event', async () => {
    const noDedup = buggyWebhookReceivers.find((v) => v.name === 'no-dedup')
    const report = await runProgram(
      { seed: 0, steps: [{ kind: 'emit', object: 0 }], faults: [{ step: 1, fault: 'duplicate_delivery' }] },
      { webhook: noDedup?.factory },
    )
    const v = report.violations.find((x) => x.checker === 'receivers.effects_once')
    expect(v?.entries.filter((e) => e.kind === 'harness.effect')).toHaveLength(2)
  })

  it('accepts a Failed event only after the whole retry window, with every attempt recorded', () => {
    const emitted = entry(0, 'harness.emitted', { event: 'evt_1' })
    const attempts = [1, 2, 3, 4, 5].map((n) =>
      entry(n, 'harness.delivery', { event: 'evt_1', attempt: n, outcome: 'connect_error' }),
    )
    const exhausted = entry(6, 'harness.delivery.exhausted', { event: 'evt_1', attempts: 5 })
    expect(checkDeliveries([emitted, ...attempts, exhausted])).toEqual([])
    const gap = checkDeliveries([emitted, ...attempts.slice(0, 3), exhausted])
    expect(gap[0]?.checker).toBe('delivery.attempts')
    expect(gap[0]?.witness).toEqual([0, 6])
    expect(checkDeliveries([emitted, attempts[0] as TraceEntry])[0]?.checker).toBe('delivery.outcome')
  })
})

describe('fault coverage campaign', () => {
  it('reports which fault kinds fired over a campaign, with no violation by the reference reporter', async () => {
    const report = await runCampaign({
      reporter: referenceUsageReporter,
      step: usageStep(),
      faults: { policy: { rates: { rate_limit: 0.2, indeterminate: 0.2, session_expiry: 0.1 } } },
      runs: 8,
    })
    expect(report.missing).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.violations).toBe(0)
    expect(Object.keys(report.fired).sort()).toEqual(['indeterminate', 'rate_limit', 'session_expiry'])
  })

  it('fails when a configured fault kind never fired', async () => {
    const report = await runCampaign({
      reporter: referenceUsageReporter,
      step: webhookStep(),
      faults: { policy: { rates: { rate_limit: 0.5 } } },
      runs: 2,
    })
    expect(report.ok).toBe(false)
    expect(report.missing).toEqual(['rate_limit'])
  })
})
