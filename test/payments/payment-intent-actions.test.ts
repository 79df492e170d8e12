import { describe, expect, it } from 'vitest'
import { dataOf, setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

describe('paymentIntents.search', () => {
  it('finds intents by status, amount and metadata', async () => {
    const { stripe } = setup(241)
    const paid = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      metadata: { order: '9' },
    })
    await stripe.paymentIntents.create({ amount: 500, currency: 'usd' })
    const found = await stripe.paymentIntents.search({ query: "status:'succeeded' AND metadata['order']:'9'" })
    expect(found.data.map((p) => p.id)).toEqual([paid.id])
    expect((await stripe.paymentIntents.search({ query: 'amount<1000' })).data).toHaveLength(1)
  })
})

describe('paymentIntents.incrementAuthorization', () => {
  const held = (stripe: ReturnType<typeof setup>['stripe'], request = true) =>
    stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
      ...(request ? { payment_method_options: { card: { request_incremental_authorization: 'if_available' } } } : {}),
    })

  it('raises the held amount of a manual-capture intent that asked for it, then captures it', async () => {
    const { sim, stripe } = setup(242)
    const pi = await held(stripe)
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge.payment_method_details?.card?.incremental_authorization?.status).toBe('available')
    const raised = await stripe.paymentIntents.incrementAuthorization(pi.id, { amount: 3500, metadata: { tip: 'yes' } })
    expect(raised).toMatchObject({ amount: 3500, amount_capturable: 3500, status: 'requires_capture', metadata: { tip: 'yes' } })
    const after = await stripe.charges.retrieve(pi.latest_charge as string)
    expect([after.amount, after.payment_method_details?.card?.amount_authorized]).toEqual([3500, 3500])
    expect(sim.admin.balance(sim.platform.id)).toEqual([])
    const updates = sim.admin.events({ type: 'payment_intent.amount_capturable_updated' })
    expect(updates.map((e) => dataOf(e).object.amount_capturable).sort()).toEqual([2000, 3500])
    const captured = await stripe.paymentIntents.capture(pi.id)
    expect([captured.status, captured.amount_received]).toEqual(['succeeded', 3500])
  })

  it('refuses an intent that did not ask, a lower amount, or a wrong status, changing nothing', async () => {
    const { sim, stripe } = setup(243)
    const plain = await held(stripe, false)
    const asked = await held(stripe)
    const paid = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const before = stateOf(sim)
    const unavailable = await caught(stripe.paymentIntents.incrementAuthorization(plain.id, { amount: 3000 }))
    expect([unavailable.statusCode, unavailable.code]).toEqual([400, 'payment_intent_unexpected_state'])
    const lower = await caught(stripe.paymentIntents.incrementAuthorization(asked.id, { amount: 2000 }))
    expect([lower.statusCode, lower.code, lower.param]).toEqual([400, 'amount_too_small', 'amount'])
    const done = await caught(stripe.paymentIntents.incrementAuthorization(paid.id, { amount: 3000 }))
    expect([done.statusCode, done.code]).toEqual([400, 'payment_intent_unexpected_state'])
    expect(stateOf(sim)).toBe(before)
  })
})
