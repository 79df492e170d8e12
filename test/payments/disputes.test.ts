import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { dataOf, setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

/** A paid intent with a dispute test card, and the dispute it opens once the instant settles. */
async function disputedPayment(seed: number, card = 'pm_card_createDispute') {
  const { sim, stripe } = setup(seed)
  const pi = await stripe.paymentIntents.create({ amount: 5000, currency: 'usd', payment_method: card, confirm: true })
  await sim.settle()
  const [dispute] = (await stripe.disputes.list({ payment_intent: pi.id })).data
  if (dispute === undefined) throw new Error('no dispute opened')
  return { sim, stripe, pi, dispute }
}

const balanceOf = (sim: ReturnType<typeof setup>['sim']) => {
  const [usd] = sim.admin.balance(sim.platform.id)
  return (usd?.available ?? 0) + (usd?.pending ?? 0)
}

describe('disputes opened by the dispute test cards', () => {
  it('opens a dispute on payment, withdrawing the amount and a 15.00 fee', async () => {
    const { sim, stripe, pi, dispute } = await disputedPayment(261)
    expect(dispute).toMatchObject({
      object: 'dispute',
      amount: 5000,
      currency: 'usd',
      charge: pi.latest_charge,
      payment_intent: pi.id,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
    })
    expect(dispute.evidence_details).toMatchObject({ has_evidence: false, submission_count: 0 })
    expect(dispute.balance_transactions).toHaveLength(1)
    expect(dispute.balance_transactions[0]).toMatchObject({
      amount: -5000,
      fee: 1500,
      net: -6500,
      type: 'adjustment',
      reporting_category: 'dispute',
    })
    expect(dispute.balance_transactions[0]?.fee_details[0]?.description).toBe('Dispute fee')
    // 5000 - 175 card fee, then the 5000 and the 1500 fee withdrawn.
    expect(balanceOf(sim)).toBe(5000 - 175 - 6500)
    expect((await stripe.charges.retrieve(pi.latest_charge as string)).disputed).toBe(true)
    const types = sim.admin
      .events({})
      .map((e) => e.type)
      .filter((t) => t.startsWith('charge.dispute.'))
    expect(types.sort()).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn'])
    expect((await stripe.disputes.retrieve(dispute.id)).id).toBe(dispute.id)
  })

  it('opens one on a legacy charge too, and an inquiry moves no money', async () => {
    const { sim, stripe } = setup(262)
    const charge = await stripe.charges.create({ amount: 2000, currency: 'usd', source: 'tok_createDisputeProductNotReceived' })
    const inquiry = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      payment_method: 'pm_card_createDisputeInquiry',
      confirm: true,
    })
    await sim.settle()
    const [chargeback] = (await stripe.disputes.list({ charge: charge.id })).data
    expect(chargeback).toMatchObject({ reason: 'product_not_received', status: 'needs_response' })
    const [asked] = (await stripe.disputes.list({ payment_intent: inquiry.id })).data
    expect(asked).toMatchObject({ status: 'warning_needs_response', balance_transactions: [] })
    expect(asked?.payment_method_details?.card?.case_type).toBe('inquiry')
    expect((await stripe.disputes.list()).data).toHaveLength(2)
  })

  it('does not dispute an uncaptured payment until it is captured', async () => {
    const { sim, stripe } = setup(263)
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_createDispute',
      capture_method: 'manual',
      confirm: true,
    })
    await sim.settle()
    expect((await stripe.disputes.list()).data).toHaveLength(0)
    await stripe.paymentIntents.capture(pi.id)
    await sim.settle()
    expect((await stripe.disputes.list()).data).toHaveLength(1)
  })
})

describe('answering a dispute', () => {
  it('winning_evidence goes under review, then wins on the clock: funds and fee reinstated, charge.dispute.closed', async () => {
    const { sim, stripe, dispute } = await disputedPayment(264)
    const before = balanceOf(sim)
    const submitted = await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: 'winning_evidence', customer_name: 'Jenny Rosen' },
      metadata: { case: '1' },
    })
    expect(submitted.status).toBe('under_review')
    expect(balanceOf(sim)).toBe(before)
    expect(sim.admin.events({ type: 'charge.dispute.closed' })).toHaveLength(0)
    await sim.settle()
    const won = await stripe.disputes.retrieve(dispute.id)
    expect(won).toMatchObject({ status: 'won', metadata: { case: '1' } })
    expect(won.evidence).toMatchObject({ customer_name: 'Jenny Rosen', uncategorized_text: 'winning_evidence' })
    expect(won.evidence_details).toMatchObject({ has_evidence: true, submission_count: 1 })
    expect(won.balance_transactions.map((t) => [t.amount, t.fee, t.net, t.reporting_category])).toEqual([
      [-5000, 1500, -6500, 'dispute'],
      [5000, -1500, 6500, 'dispute_reversal'],
    ])
    expect(balanceOf(sim)).toBe(before + 6500)
    const types = sim.admin
      .events({})
      .map((e) => e.type)
      .filter((t) => t.startsWith('charge.dispute.'))
    expect(types).toContain('charge.dispute.funds_reinstated')
    expect(types).toContain('charge.dispute.updated')
    const closed = sim.admin.events({ type: 'charge.dispute.closed' })[0]
    expect(dataOf(closed).object.status).toBe('won')
    const late = await caught(stripe.disputes.update(dispute.id, { metadata: { a: 'b' } }))
    expect([late.statusCode, late.code]).toEqual([400, 'dispute_not_open'])
  })

  it('losing_evidence loses, keeping the funds withdrawn', async () => {
    const { sim, stripe, dispute } = await disputedPayment(265)
    const before = balanceOf(sim)
    const submitted = await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'losing_evidence' } })
    expect(submitted.status).toBe('under_review')
    await sim.settle()
    const lost = await stripe.disputes.retrieve(dispute.id)
    expect(lost.status).toBe('lost')
    expect(sim.admin.events({ type: 'charge.dispute.closed' })).toHaveLength(1)
    expect(lost.balance_transactions).toHaveLength(1)
    expect(balanceOf(sim)).toBe(before)
    expect(sim.admin.events({ type: 'charge.dispute.funds_reinstated' })).toHaveLength(0)
  })

  it('staged evidence (submit: false) keeps it open; other evidence goes under review', async () => {
    const { stripe, dispute } = await disputedPayment(266)
    const staged = await stripe.disputes.update(dispute.id, { evidence: { product_description: 'A mug' }, submit: false })
    expect(staged).toMatchObject({ status: 'needs_response' })
    expect(staged.evidence_details.submission_count).toBe(0)
    const review = await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'see attached' } })
    expect(review.status).toBe('under_review')
    expect(review.evidence.product_description).toBe('A mug')
    const close = await caught(stripe.disputes.close(dispute.id))
    expect([close.statusCode, close.code]).toEqual([400, 'dispute_not_open'])
  })

  it('refuses to refund a disputed charge', async () => {
    const { stripe, pi } = await disputedPayment(269)
    const e = await caught(stripe.refunds.create({ payment_intent: pi.id }))
    expect([e.statusCode, e.code]).toEqual([400, 'charge_disputed'])
    expect((await stripe.refunds.list()).data).toHaveLength(0)
  })

  it('close accepts the dispute as lost; refusals change nothing', async () => {
    const { sim, stripe, dispute } = await disputedPayment(267)
    const before = stateOf(sim)
    const missing = await caught(stripe.disputes.close('dp_missing'))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
    expect(stateOf(sim)).toBe(before)
    const closed = await stripe.disputes.close(dispute.id)
    expect(closed.status).toBe('lost')
    expect(sim.admin.events({ type: 'charge.dispute.closed' })).toHaveLength(1)
    const again = await caught(stripe.disputes.close(dispute.id))
    expect(again.code).toBe('dispute_not_open')
  })
})

describe('dispute events delivered', () => {
  it('delivers the dispute events signed to a webhook endpoint', async () => {
    const { sim, stripe } = setup(268)
    const dest = await stripe.v2.core.eventDestinations.create({
      name: 'disputes',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.closed'],
      webhook_endpoint: { url: 'https://hooks.example.test/disputes' },
      include: ['webhook_endpoint.signing_secret'],
    })
    const secret = dest.webhook_endpoint?.signing_secret ?? ''
    const got: Stripe.Event[] = []
    sim.receivers.mount('https://hooks.example.test/disputes', async (req) => {
      const raw = await req.text()
      const signature = req.headers.get('Stripe-Signature') ?? ''
      got.push(stripe.webhooks.constructEvent(raw, signature, secret, 300, undefined, sim.clock.now))
      return new Response('ok')
    })
    await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', payment_method: 'pm_card_createDispute', confirm: true })
    await sim.settle()
    const [dispute] = (await stripe.disputes.list()).data
    await stripe.disputes.close(dispute?.id ?? '')
    await sim.settle()
    expect(got.map((e) => e.type).sort()).toEqual([
      'charge.dispute.closed',
      'charge.dispute.created',
      'charge.dispute.funds_withdrawn',
    ])
    const created = got.find((e) => e.type === 'charge.dispute.created')
    expect((created?.data.object as Stripe.Dispute | undefined)?.amount).toBe(2500)
  })
})
