import fc from 'fast-check'
import {
  buggySubscriptionMirrors,
  type FlowProgram,
  flowProgram,
  fulfilmentPayments,
  fulfilmentWorkload,
  mirrorSubject,
  mirrorWorkload,
  referenceSubscriptionMirror,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const variant = (name: string) => {
  const found = buggySubscriptionMirrors.find((v) => v.name === name)
  if (found === undefined) throw new Error(`no bundled mirror variant ${name}`)
  return found.factory
}

// A hundred programs: the same-second pairs share the ordering episodes' draws with the aimed ones.
const programs = (seed: number) => fc.sample(flowProgram(mirrorWorkload()), { numRuns: 100, seed })
const aimedAt = (p: FlowProgram, kind: string, fault: string, operation: string) =>
  p.faults.some((f) => f.fault === fault && f.operation === operation && p.steps[f.step - 1]?.kind === kind)

describe('episodes with aimed faults', () => {
  it('keeps the faults an episode aims on the step they ride, before the drawn ones, within maxFaults', () => {
    const episode = fc.constant([
      {
        step: { kind: 'advance' as const, ms: 60_000 },
        faults: [{ fault: 'duplicate_delivery' as const, count: 1, operation: 'invoice.paid' }],
      },
    ])
    const drawn = fc.sample(flowProgram({ episodes: [episode], episodeShare: 0.9, maxFaults: 1, minSteps: 4 }), {
      numRuns: 40,
      seed: 3,
    })
    const withEpisode = drawn.filter((p) => p.steps.slice(1).some((s) => s.kind === 'advance' && s.ms === 60_000))
    expect(withEpisode.length).toBeGreaterThan(20)
    for (const p of withEpisode) {
      expect(p.faults).toHaveLength(1)
      const [f] = p.faults
      expect(f).toMatchObject({ fault: 'duplicate_delivery', operation: 'invoice.paid' })
      expect(p.steps[(f?.step ?? 0) - 1]).toEqual({ kind: 'advance', ms: 60_000 })
    }
  })

  it("draws the orderings the mirror's rules depend on in most programs of every seed", () => {
    for (const seed of [1, 5, 10, 13]) {
      const drawn = programs(seed)
      const created = drawn.filter((p) => aimedAt(p, 'subscribe', 'reorder_delivery', 'customer.subscription.created'))
      const seats = drawn.filter((p) => aimedAt(p, 'change_quantity', 'duplicate_delivery', 'customer.subscription.updated'))
      const overtaken = drawn.filter((p) =>
        p.faults.some((f) => f.fault === 'reorder_delivery' && f.delay === 7_200_000 && p.steps[f.step]?.kind === 'change_plan'),
      )
      expect(created.length, `seed ${seed}`).toBeGreaterThanOrEqual(3)
      expect(seats.length, `seed ${seed}`).toBeGreaterThanOrEqual(1)
      expect(overtaken.length, `seed ${seed}`).toBeGreaterThanOrEqual(1)
    }
  })

  it('catches the ordering mistakes on a created event delivered after its same-second activation, and passes the reference', async () => {
    const program: FlowProgram = {
      seed: 1,
      steps: [{ kind: 'subscribe', customer: 2, plan: 0, quantity: 1, trialDays: 0 }],
      faults: [{ step: 1, fault: 'reorder_delivery', count: 1, operation: 'customer.subscription.created' }],
    }
    for (const name of ['last-delivered-wins', 'created-ties', 'seat-deltas']) {
      const report = await runFlow(program, mirrorSubject(variant(name), {}, 'test'))
      expect(
        report.violations.map((v) => v.checker),
        name,
      ).toContain('mirror.access_withheld')
    }
    expect((await runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}, 'test'))).violations).toEqual([])
  }, 60_000)

  it('catches seat deltas on a seat change delivered twice, and passes the reference', async () => {
    const program: FlowProgram = {
      seed: 1,
      steps: [
        { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
        { kind: 'change_quantity', sub: 0, quantity: 3 },
      ],
      faults: [{ step: 2, fault: 'duplicate_delivery', count: 1, operation: 'customer.subscription.updated' }],
    }
    const report = await runFlow(program, mirrorSubject(variant('seat-deltas'), {}, 'test'))
    const converged = report.violations.filter((v) => v.checker === 'mirror.converged')
    expect(converged.map((v) => v.message).join('\n')).toMatch(/quantity/)
    expect((await runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}, 'test'))).violations).toEqual([])
  }, 60_000)

  it('names the newest subscription -1: a cancellation at period end reaches the one just made', async () => {
    const program: FlowProgram = {
      seed: 1,
      steps: [
        { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
        { kind: 'subscribe', customer: 2, plan: 1, quantity: 1, trialDays: 0 },
        { kind: 'cancel', sub: -1, atPeriodEnd: true },
      ],
      faults: [],
    }
    const report = await runFlow(program, mirrorSubject(variant('revokes-at-period-end-flag'), {}, 'test'))
    expect(report.steps[2]).not.toMatch(/no subscription/)
    expect(report.violations.map((v) => v.checker)).toContain('mirror.access_withheld')
  }, 60_000)

  it("meets the fulfilment redeploy episode's session again after the restart", () => {
    const drawn = fc.sample(flowProgram(fulfilmentWorkload(fulfilmentPayments.length)), { numRuns: 50, seed: 2 })
    const again = drawn.filter((p) =>
      p.steps.some(
        (s, i) =>
          s.kind === 'x:restart' &&
          p.steps[i - 1]?.kind === 'x:pay' &&
          (p.steps[i - 1] as { session?: unknown } | undefined)?.session === -1 &&
          (p.steps[i + 1]?.kind === 'x:return' || p.steps[i + 1]?.kind === 'redeliver'),
      ),
    )
    expect(again.length).toBeGreaterThanOrEqual(5)
  })
})
