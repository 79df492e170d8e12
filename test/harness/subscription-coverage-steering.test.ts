import {
  dunningSubject,
  dunningWorkload,
  knownFlowCombinations,
  mirrorSubject,
  mirrorWorkload,
  referenceDunningClient,
  referenceSubscriptionMirror,
  runFlowCampaign,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { expectPlainLater } from './fixtures/plain-reaches-later.js'

// A failure notice delivered in order after the invoice was paid, to an app still holding the
// secret from before a roll: the renewal that made it falls on a day of the month the program
// cannot know, so only a program that resends it once the roll is under way reaches it at will.
const NOTICE_AFTER_PAYMENT_IN_ROLL = 'invoice.payment_failed|paid|in_order|in_roll'
// An attacker's `invoice.paid` about an invoice still a draft: only in the hour before a trial's
// invoice is finalized.
const PAID_FORGED_ABOUT_DRAFT = 'invoice.paid|draft|forged|none'
// A write-off delivered after the invoice was paid, a later event about it delivered first, to an
// app mid-roll.
const WRITE_OFF_AFTER_PAYMENT_IN_ROLL = 'invoice.marked_uncollectible|paid|out_of_order|in_roll'

// A trial's end announced, held back while the subscription is cancelled during the trial.
const NOTICE_AFTER_CANCEL = 'customer.subscription.trial_will_end|canceled|in_order|none'
// A write-off sent again after the invoice was voided; then after a redeploy, then mid-roll.
const WRITE_OFF_AGAIN = 'invoice.marked_uncollectible|void|duplicate'
// A write-off sent again after the invoice was paid after all.
const WRITE_OFF_PAID_AGAIN = 'invoice.marked_uncollectible|paid|duplicate'

// An attacker's payment success about a payment intent cancelled with its expired subscription,
// sent to an app mid-roll: the roll goes in just before the forgery, not before the day-long step
// that cancelled it (its redeploy would come first).
const FORGED_SUCCESS_IN_ROLL = 'payment_intent.succeeded|canceled|forged|in_roll'

// A subscription's creation delivered while it is paused, after a redeploy; and its pause's notice
// sent again while it is still paused.
const CREATED_WHILE_PAUSED = 'customer.subscription.created|paused|in_order|redeployed'
const PAUSE_AGAIN = 'customer.subscription.paused|paused|duplicate|none'

// A trial's end announced as the subscription is made, held back while it is paused in the trial;
// a resumption's notice held back while the subscription is paused again.
const NOTICE_WHILE_PAUSED = 'customer.subscription.trial_will_end|paused|in_order|none'
const RESUMED_WHILE_PAUSED_AGAIN = 'customer.subscription.resumed|paused|out_of_order|redeployed'

// An attacker's reactivation of a paused subscription, to an app as it stood and to one mid-roll.
const FORGED_REACTIVATION = 'customer.subscription.updated|paused|forged'

const mirror = () => mirrorSubject(referenceSubscriptionMirror, {}, 'test')
const dunning = () => dunningSubject(referenceDunningClient, 'test')

describe('a steered campaign of the subscription flows', () => {
  it('reaches a failure notice delivered after the payment, mid-roll, in fewer runs than plain generation', async () => {
    expect(knownFlowCombinations.checkSubscriptionMirror).toContain(NOTICE_AFTER_PAYMENT_IN_ROLL)
    const steered = await runFlowCampaign(mirror, { runs: 14, known: [NOTICE_AFTER_PAYMENT_IN_ROLL] })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(mirror, {}, steered, [NOTICE_AFTER_PAYMENT_IN_ROLL])
  }, 240_000)

  it("reaches an attacker's payment claim about a draft invoice in fewer runs than plain generation", async () => {
    expect(knownFlowCombinations.checkSubscriptionMirror).toContain(PAID_FORGED_ABOUT_DRAFT)
    const steered = await runFlowCampaign(mirror, { runs: 14, known: [PAID_FORGED_ABOUT_DRAFT] })
    expect(steered.missing).toEqual([])
    await expectPlainLater(mirror, {}, steered, [PAID_FORGED_ABOUT_DRAFT])
  }, 240_000)

  it('reaches a write-off delivered late after the payment, mid-roll, in fewer runs than plain generation', async () => {
    expect(knownFlowCombinations.checkDunning).toContain(WRITE_OFF_AFTER_PAYMENT_IN_ROLL)
    const known = [WRITE_OFF_AFTER_PAYMENT_IN_ROLL]
    const steered = await runFlowCampaign(dunning, { runs: 14, workload: dunningWorkload(), known })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(dunning, { workload: dunningWorkload() }, steered, [WRITE_OFF_AFTER_PAYMENT_IN_ROLL])
  }, 240_000)

  it("reaches a trial's notice delivered after the subscription was cancelled in the trial in fewer runs than plain generation", async () => {
    expect(knownFlowCombinations.checkSubscriptionMirror).toContain(NOTICE_AFTER_CANCEL)
    const steered = await runFlowCampaign(mirror, { runs: 14, known: [NOTICE_AFTER_CANCEL] })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(mirror, {}, steered, [NOTICE_AFTER_CANCEL])
  }, 240_000)

  it("reaches an attacker's payment claim about a cancelled payment intent, mid-roll, in fewer runs than plain generation", async () => {
    expect(knownFlowCombinations.checkSubscriptionMirror).toContain(FORGED_SUCCESS_IN_ROLL)
    // The mirror's own workload: its flows' expiring incomplete subscriptions cancel payment intents.
    const workload = mirrorWorkload()
    const steered = await runFlowCampaign(mirror, { runs: 30, workload, known: [FORGED_SUCCESS_IN_ROLL] })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(mirror, { workload }, steered, [FORGED_SUCCESS_IN_ROLL])
  }, 240_000)

  it("reaches a paused subscription's combinations in fewer runs than plain generation", async () => {
    const known = [CREATED_WHILE_PAUSED, PAUSE_AGAIN]
    for (const k of known) expect(knownFlowCombinations.checkSubscriptionMirror).toContain(k)
    // The mirror's own workload: its flows pause subscriptions.
    const workload = mirrorWorkload()
    const steered = await runFlowCampaign(mirror, { runs: 14, workload, known })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(mirror, { workload }, steered, known)
  }, 240_000)

  it("reaches a trial's notice and a resumption's notice delivered while the subscription is paused in fewer runs than plain generation", async () => {
    const known = [NOTICE_WHILE_PAUSED, RESUMED_WHILE_PAUSED_AGAIN]
    for (const k of known) expect(knownFlowCombinations.checkSubscriptionMirror).toContain(k)
    const workload = mirrorWorkload()
    const steered = await runFlowCampaign(mirror, { runs: 14, workload, known })
    expect(steered.missing).toEqual([])
    expect(steered.violations).toBe(0)
    await expectPlainLater(mirror, { workload }, steered, known)
  }, 240_000)

  it('aims at the earliest standing first, so one run reaches a duplicate for every standing of the app', async () => {
    const pairs = [WRITE_OFF_AGAIN, WRITE_OFF_PAID_AGAIN]
    const keys = pairs.flatMap((p) => ['in_roll', 'redeployed', 'none'].map((d) => `${p}|${d}`))
    for (const k of keys) expect(knownFlowCombinations.checkDunning).toContain(k)
    // Every standing missing: the run aimed at the app as it stood makes the duplicate again after
    // a redeploy and mid-roll, where one aimed at a later standing first leaves the earlier ones for later runs.
    const steered = await runFlowCampaign(dunning, { runs: 14, workload: dunningWorkload(), known: keys })
    expect(steered.missing).toEqual([])
    for (const p of pairs) expect(new Set(keys.filter((k) => k.startsWith(p)).map((k) => steered.firstReached[k])).size).toBe(1)
  }, 240_000)

  it("sends a built forgery again inside a roll: one run reaches the attacker's claim for both standings", async () => {
    const keys = ['in_roll', 'none'].map((d) => `${FORGED_REACTIVATION}|${d}`)
    for (const k of keys) expect(knownFlowCombinations.checkSubscriptionMirror).toContain(k)
    // Seed 2: no plain run meets the unrolled forgery first (on seed 1 one does, by chance, and the
    // steering then aims at the roll alone).
    const steered = await runFlowCampaign(mirror, { runs: 14, seed: 2, workload: mirrorWorkload(), known: keys })
    expect(steered.missing).toEqual([])
    expect(steered.firstReached[keys[0] as string]).toBe(steered.firstReached[keys[1] as string])
  }, 240_000)

  it('reaches a duplicate where the app stood, after a redeploy and mid-roll in the same run', async () => {
    const [none, redeployed, inRoll] = ['none', 'redeployed', 'in_roll'].map((d) => `${WRITE_OFF_AGAIN}|${d}`)
    for (const k of [none, redeployed, inRoll]) expect(knownFlowCombinations.checkDunning).toContain(k)
    const known = [none as string]
    const steered = await runFlowCampaign(dunning, { runs: 14, workload: dunningWorkload(), known })
    expect(steered.missing).toEqual([])
    const run = steered.firstReached[none as string]
    expect(steered.firstReached[redeployed as string]).toBe(run)
    expect(steered.firstReached[inRoll as string]).toBe(run)
  }, 240_000)
})
