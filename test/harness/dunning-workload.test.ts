import fc from 'fast-check'
import {
  buggyDunningClients,
  checkDunning,
  dunningSubject,
  dunningWorkload,
  type FlowProgram,
  type FlowStep,
  flowProgram,
  referenceDunningClient,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

// The full sweep (seeds 1..20) is `scripts/flow-seed-sweep.ts`; here one seed keeps the suite fast
// (billing-flows.test.ts catches each variant on the default seed as well).
const SEEDS = [2]
const DAY = 86_400_000

/** Whether a program holds a failed cycle fixed later: the card fails, a renewal, then a fix for that customer. */
function hasRecoveredCycle(steps: readonly FlowStep[]): boolean {
  const customerOf = (s: FlowStep) => (s as { customer?: unknown }).customer
  return steps.some(
    (fail, i) =>
      fail.kind === 'fail_card' &&
      steps
        .slice(i + 1)
        .some(
          (renew, j) =>
            renew.kind === 'advance' &&
            renew.ms >= 30 * DAY &&
            steps
              .slice(i + 2 + j)
              .some((fix) => (fix.kind === 'recover' || fix.kind === 'x:update_card') && customerOf(fix) === customerOf(fail)),
        ),
  )
}

describe('checkDunning workload', () => {
  it('draws a failed payment cycle that is later fixed in at least two fifths of its programs', () => {
    const programs = fc.sample(flowProgram(dunningWorkload()), { numRuns: 200, seed: 11 })
    const recovered = programs.filter((p) => hasRecoveredCycle(p.steps)).length
    expect(recovered).toBeGreaterThanOrEqual(80)
  })

  it('aims its delivery faults at the invoice events and draws duplicates most', () => {
    const faults = fc.sample(flowProgram(dunningWorkload()), { numRuns: 200, seed: 12 }).flatMap((p) => p.faults)
    const duplicates = faults.filter((f) => f.fault === 'duplicate_delivery')
    expect(duplicates.length).toBeGreaterThan(faults.length / 6)
    expect(duplicates.some((f) => f.operation === 'invoice.payment_failed')).toBe(true)
  })

  it('pays a failed renewal on the retry after the card is fixed: one notice, one restore', async () => {
    const program: FlowProgram = {
      seed: 1,
      faults: [],
      steps: [
        { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
        { kind: 'fail_card', customer: 0 },
        { kind: 'advance', ms: 32 * DAY },
        { kind: 'x:update_card', customer: 0 },
        { kind: 'advance', ms: 3 * DAY },
      ],
    }
    let notices = 0
    let restores = 0
    const subject = dunningSubject(referenceDunningClient, 'test')
    const report = await runFlow(program, {
      ...subject,
      check(entries) {
        notices = entries.filter((e) => e.kind === 'harness.dunning.notice').length
        restores = entries.filter((e) => e.kind === 'harness.dunning.restore').length
        return subject.check(entries)
      },
    })
    expect(report.violations).toEqual([])
    expect(report.steps[3]).toBe('x:update_card customer=0')
    expect({ notices, restores }).toEqual({ notices: 1, restores: 1 })
  })

  for (const variant of buggyDunningClients) {
    it(`catches the ${variant.name} dunning client on seeds ${SEEDS.join(', ')} at the default runs, in at most 10 steps`, async () => {
      const outcomes = []
      for (const seed of SEEDS) {
        const result = await checkDunning(variant.factory, { ...variant.options, seed })
        outcomes.push({ seed, caught: !result.ok, short: (result.counterexample?.steps.length ?? 99) <= 10 })
      }
      expect(outcomes).toEqual(SEEDS.map((seed) => ({ seed, caught: true, short: true })))
    }, 240_000)
  }
})
