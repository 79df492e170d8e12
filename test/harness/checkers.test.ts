import { describe, expect, it } from 'vitest'
import {
  buggyUsageReporters,
  buggyWebhookReceivers,
  checkDeliveries,
  referenceUsageReporter,
  referenceWebhookReceiver,
  runCampaign,
  runProgram,
  usageStep,
  webhookStep,
} from '../../src/harness/index.js'
import type { TraceEntry } from '../../src/kernel/trace.js'

const entry = (seq: number, kind: string, data: Record<string, unknown>, at = 0): TraceEntry =>
  ({ seq, at, kind, data }) as TraceEntry

describe('history checkers', () => {
  it('names the two stream requests that counted an acknowledged usage twice', async () => {
    const noIds = buggyUsageReporters.find((v) => v.name === 'no-identifiers')
    const report = await runProgram(
      {
        seed: 0,
        steps: [{ kind: 'report', units: 1, value: 1 }],
        faults: [{ step: 1, fault: 'indeterminate', operation: 'v2.billing.meterEventStream' }],
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
        faults: [{ step: 1, fault: 'indeterminate', operation: 'v2.billing.meterEventStream' }],
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
    const pair = { event: 'evt_1', destination: 'ed_1' }
    const scheduled = entry(0, 'delivery.scheduled', { ...pair, due: 0 })
    const attempts = [1, 2, 3, 4].map((n) =>
      entry(n, 'delivery.attempt', { ...pair, trigger: n === 1 ? 'automatic' : 'retry', attempt: n, outcome: 'connect_error' }),
    )
    const exhausted = entry(5, 'delivery.exhausted', { ...pair, attempts: 4 })
    expect(checkDeliveries([scheduled, ...attempts, exhausted])).toEqual([])
    const gap = checkDeliveries([scheduled, ...attempts.slice(0, 3), exhausted])
    expect(gap[0]?.checker).toBe('delivery.attempts')
    expect(gap[0]?.witness).toEqual([0, 5])
    expect(checkDeliveries([scheduled, attempts[0] as TraceEntry])[0]?.checker).toBe('delivery.outcome')
  })
})

describe('delivery checker on real runs (the service delivery trace)', () => {
  const reference = referenceWebhookReceiver
  it('passes a run whose receiver stays down: the event is Failed after the first attempt and three retries', async () => {
    const report = await runProgram(
      {
        seed: 3,
        steps: [
          { kind: 'receiver', up: false },
          { kind: 'emit', object: 0 },
        ],
        faults: [],
      },
      { webhook: reference },
    )
    const entries = report.sim.trace.entries()
    const attempts = entries.filter((e) => e.kind === 'delivery.attempt')
    expect(attempts.map((e) => [e.data.trigger, e.data.outcome])).toEqual([
      ['automatic', 'connect_error'],
      ['retry', 'connect_error'],
      ['retry', 'connect_error'],
      ['retry', 'connect_error'],
    ])
    expect(entries.filter((e) => e.kind === 'delivery.exhausted')).toHaveLength(1)
    expect(checkDeliveries(entries)).toEqual([])
    expect(report.violations).toEqual([])
    const record = report.sim.admin.deliveries()[0]
    expect(record?.status).toBe('Failed')
  })

  it('names the delivery still pending when the run ends before the retry window', async () => {
    const report = await runProgram(
      {
        seed: 3,
        steps: [
          { kind: 'receiver', up: false },
          { kind: 'emit', object: 0 },
        ],
        faults: [],
      },
      { webhook: reference, drainMs: 60 * 60_000 },
    )
    const v = report.violations.find((x) => x.checker === 'delivery.outcome')
    expect(v?.entries[0]?.kind).toBe('delivery.scheduled')
  })

  it('flags a Failed delivery whose trace lost an attempt', async () => {
    const report = await runProgram(
      {
        seed: 3,
        steps: [
          { kind: 'receiver', up: false },
          { kind: 'emit', object: 0 },
        ],
        faults: [],
      },
      { webhook: reference },
    )
    const entries = report.sim.trace.entries()
    const dropped = entries.filter((e) => !(e.kind === 'delivery.attempt' && e.data.attempt === 2))
    expect(checkDeliveries(dropped).map((v) => v.checker)).toEqual(['delivery.attempts'])
  })

  it('aims a scheduled duplicate at the delivery of one event type through the per-attempt fault hook', async () => {
    const report = await runProgram(
      {
        seed: 4,
        steps: [
          { kind: 'emit', object: 0 },
          { kind: 'emit', object: 0 },
        ],
        faults: [{ step: 1, fault: 'duplicate_delivery', operation: 'payment_intent.processing' }],
      },
      { webhook: reference },
    )
    const attempts = report.sim.trace.entries().filter((e) => e.kind === 'delivery.attempt')
    const types = new Map(report.sim.admin.deliveries().map((r) => [r.eventId, r.eventType]))
    const duplicates = attempts.filter((e) => e.data.trigger === 'duplicate').map((e) => types.get(String(e.data.event)))
    expect(duplicates).toEqual(['payment_intent.processing'])
    expect(report.violations).toEqual([])
  })

  it("records an attacker's replay of an old signed delivery, refused by the reference receiver and accepted without tolerance", async () => {
    const program = {
      seed: 5,
      steps: [
        { kind: 'emit', object: 0 },
        { kind: 'advance', ms: 1_000 },
      ] as const,
      faults: [{ step: 2, fault: 'replay_delivery' as const }],
    }
    const good = await runProgram({ ...program, steps: [...program.steps] }, { webhook: reference })
    const replay = good.sim.trace.entries().find((e) => e.kind === 'delivery.replay')
    expect(replay?.data).toMatchObject({ outcome: 'http_error', status: 400 })
    expect(Number(replay?.data.age)).toBeGreaterThanOrEqual(6 * 60_000)
    const lax = buggyWebhookReceivers.find((v) => v.name === 'ignores-tolerance')
    const bad = await runProgram({ ...program, steps: [...program.steps] }, { webhook: lax?.factory })
    expect(bad.violations.map((v) => v.checker)).toContain('receivers.replay_refused')
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

describe('webhook fault coverage on the real delivery', () => {
  it('counts every delivery fault kind of the realistic preset, those drawn by the delivery knobs included', async () => {
    const report = await runCampaign({
      webhook: referenceWebhookReceiver,
      step: webhookStep(),
      faults: {
        policy: {
          rates: { duplicate_delivery: 0.3, reorder_delivery: 0.3, delay_delivery: 0.3, receiver_down: 0.2, receiver_slow: 0.2 },
        },
      },
      runs: 6,
    })
    expect(report.missing).toEqual([])
    expect(report.violations).toBe(0)
    expect(Object.keys(report.fired).sort()).toEqual([
      'delay_delivery',
      'duplicate_delivery',
      'receiver_down',
      'receiver_slow',
      'reorder_delivery',
    ])
  })
})
