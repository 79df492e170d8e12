import {
  fulfilmentPayments,
  fulfilmentSubject,
  fulfilmentWorkload,
  knownFlowCombinations,
  referenceFulfilmentClient,
  runFlowCampaign,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { expectPlainLater } from './fixtures/plain-reaches-later.js'

// The run's first delivery a payment's success, replayed by the attacker once the payment is
// settled: what an app that fulfils on `payment_intent.succeeded` must refuse.
const SUCCESS_REPLAYED = 'payment_intent.succeeded|succeeded|replayed|none'
// A declined try's failure notice delivered after the retry succeeded, the success delivered first.
const FAILURE_AFTER_SUCCESS = 'payment_intent.payment_failed|succeeded|out_of_order|none'
// The same failure notice refused once (the attacker's replay of it answered 400) and then sent again.
const FAILURE_RETRIED = 'payment_intent.payment_failed|requires_payment_method|retry|redeployed'
// A trial bought through checkout (nothing to pay): its completion refused once and sent again to an
// app mid-roll; the trial's end announced, delivered after the trial was over and the subscription
// active; the card's setup intent, authenticated, replayed by the attacker.
const TRIAL_COMPLETION_RETRIED = 'checkout.session.completed|complete/no_payment_required|retry|in_roll'
const TRIAL_NOTICE_AFTER_END = 'customer.subscription.trial_will_end|active|out_of_order|none'
const SETUP_REPLAYED = 'setup_intent.succeeded|succeeded|replayed|redeployed'

const subject = () => fulfilmentSubject(referenceFulfilmentClient, 'test')
const workload = fulfilmentWorkload(fulfilmentPayments.length)

describe('a steered fulfilment campaign', () => {
  it('reaches payment events replayed, out of order and retried in fewer runs than plain generation', async () => {
    const targets = [SUCCESS_REPLAYED, FAILURE_AFTER_SUCCESS, FAILURE_RETRIED]
    for (const t of targets) expect(knownFlowCombinations.checkFulfilment).toContain(t)
    const steered = await runFlowCampaign(subject, { runs: 20, workload, known: targets })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    for (const t of targets) expect(steered.firstReached[t]).toBeLessThanOrEqual(20)
    await expectPlainLater(subject, { workload }, steered, targets)
  }, 240_000)

  it("reaches a trial checkout's combinations (nothing to pay, the card saved, the trial's end) in fewer runs than plain generation", async () => {
    const targets = [TRIAL_COMPLETION_RETRIED, TRIAL_NOTICE_AFTER_END, SETUP_REPLAYED]
    for (const t of targets) expect(knownFlowCombinations.checkFulfilment).toContain(t)
    const steered = await runFlowCampaign(subject, { runs: 20, workload, known: targets })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(subject, { workload }, steered, targets)
  }, 240_000)

  it('reaches every combination the fulfilment flows are known to produce within 350 runs', async () => {
    const known = knownFlowCombinations.checkFulfilment
    const report = await runFlowCampaign(subject, {
      runs: 350,
      workload,
      known,
      focus: ['checkout.session.', 'payment_intent.succeeded'],
    })
    expect(report.missing).toEqual([])
    expect(report.violations).toBe(0)
  }, 400_000)

  it('builds programs only of the checkout steps the property draws', async () => {
    const kinds = new Set<string>()
    await runFlowCampaign(subject, {
      runs: 25,
      workload,
      known: knownFlowCombinations.checkFulfilment,
      onRun: (_run, _coverage, program) => {
        for (const s of program.steps) kinds.add(s.kind)
      },
    })
    expect(kinds.has('x:checkout')).toBe(true)
    expect(
      [...kinds].filter((k) => !k.startsWith('x:') && !['advance', 'redeploy', 'roll_secret', 'forge', 'redeliver'].includes(k)),
    ).toEqual([])
  }, 240_000)
})
