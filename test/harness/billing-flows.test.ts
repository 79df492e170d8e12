import {
  buggyDunningClients,
  buggySubscriptionMirrors,
  checkDunning,
  checkSubscriptionMirror,
  type DunningClientFactory,
  flowFaultKinds,
  HarnessInputError,
  makeDunningClient,
  makeSubscriptionMirror,
  mirrorSubject,
  referenceDunningClient,
  referenceSubscriptionMirror,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

// CI runs fewer programs than the 1,000 each reference passed (docs/faults-and-properties.md).
const RUNS = 60

describe('checkSubscriptionMirror', () => {
  it('passes the reference mirror over generated billing flows under every fault kind', async () => {
    const result = await checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: RUNS })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  }, 120_000)

  it('passes the reference mirror with realistic fault rates on top of the schedule', async () => {
    const result = await checkSubscriptionMirror(referenceSubscriptionMirror, {
      numRuns: 30,
      seed: 7,
      faults: { preset: 'realistic' },
    })
    expect(result.violations ?? []).toEqual([])
  }, 120_000)

  it('draws its fault schedule from delivery and API faults alike', () => {
    expect(flowFaultKinds).toEqual(
      expect.arrayContaining([
        'duplicate_delivery',
        'reorder_delivery',
        'delay_delivery',
        'receiver_down',
        'server_error',
        'indeterminate',
      ]),
    )
  })

  for (const variant of buggySubscriptionMirrors) {
    it(`catches the ${variant.name} mirror with a counterexample of at most 10 steps`, async () => {
      const result = await checkSubscriptionMirror(variant.factory, { ...variant.options, numRuns: 150 })
      expect(result.ok).toBe(false)
      expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
      // A variant that breaks the acknowledgement rule says so; the others break the property's own rules.
      expect(result.violations?.[0]?.checker).toMatch(variant.breaks ?? /^mirror\./)
    }, 120_000)
  }

  it('refuses a past_due customer access past the grace, and tolerates it within the grace', async () => {
    const program = {
      seed: 1,
      faults: [],
      steps: [
        { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
        { kind: 'fail_card', customer: 0 },
        { kind: 'advance', ms: 32 * 86_400_000 },
      ] as const,
    }
    const lenient = makeSubscriptionMirror({ pastDueKeepsAccess: true })
    const strict = await runFlow(program, mirrorSubject(lenient, {}, 'test'))
    expect(strict.violations.map((v) => v.checker)).toContain('mirror.access_granted')
    const graced = await runFlow(program, mirrorSubject(lenient, { pastDueGraceMs: 7 * 86_400_000 }, 'test'))
    expect(graced.violations).toEqual([])
  }, 60_000)

  it('refuses a factory that does not return a mirror', async () => {
    const bad = (() => ({ handler: () => new Response('ok') })) as never
    await expect(checkSubscriptionMirror(bad, { numRuns: 1 })).rejects.toThrow(HarnessInputError)
  })
})

describe('checkDunning', () => {
  it('passes the reference dunning client over generated billing flows under every fault kind', async () => {
    const result = await checkDunning(referenceDunningClient, { numRuns: RUNS })
    expect(result.violations ?? []).toEqual([])
  }, 120_000)

  for (const variant of buggyDunningClients) {
    it(`catches the ${variant.name} dunning client with a counterexample of at most 10 steps`, async () => {
      const result = await checkDunning(variant.factory, { ...variant.options, numRuns: 150 })
      expect(result.ok).toBe(false)
      expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
      // A variant that breaks the acknowledgement rule says so; the others break the property's own rules.
      expect(result.violations?.[0]?.checker).toMatch(variant.breaks ?? /^dunning\./)
    }, 120_000)
  }

  it('names the invoice that was noticed twice', async () => {
    // A notice on every failed attempt, otherwise correct (standing included): the verdict is the notices'.
    const twice: DunningClientFactory = makeDunningClient({ noticeEveryAttempt: true })
    const result = await checkDunning(twice, { numRuns: 100 })
    expect(result.ok).toBe(false)
    expect(result.violations?.[0]?.checker).toBe('dunning.notice_once')
    expect(result.violations?.[0]?.message).toMatch(/^in_\w+: /)
  }, 120_000)
})
