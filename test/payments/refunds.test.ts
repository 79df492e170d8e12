import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { caught, officialClient } from './helpers.js'

/** Refunds move money: the charge, the balance and the events say so, and over-refunds change nothing. */
async function paid(stripe: Stripe, amount = 2000) {
  return stripe.paymentIntents.create({ amount, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
}

describe('refunds', () => {
  it('refunds a payment intent in full by default and marks its charge refunded', async () => {
    const { stripe } = officialClient(7)
    const pi = await paid(stripe)
    const refund = await stripe.refunds.create({ payment_intent: pi.id })
    expect(refund).toMatchObject({ object: 'refund', amount: 2000, currency: 'usd', status: 'succeeded' })
    expect(refund.balance_transaction).toMatch(/^txn_/)
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge).toMatchObject({ amount_refunded: 2000, refunded: true })
  })

  it('posts a refund balance transaction that leaves the balance at once', async () => {
    const { stripe } = officialClient(7)
    const pi = await paid(stripe)
    const before = await stripe.balance.retrieve()
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 500 })
    const txn = await stripe.balanceTransactions.retrieve(refund.balance_transaction as string)
    expect(txn).toMatchObject({ type: 'refund', amount: -500, fee: 0, net: -500, status: 'available', source: refund.id })
    const after = await stripe.balance.retrieve()
    const available = (b: Stripe.Balance) => b.available.find((x) => x.currency === 'usd')?.amount ?? 0
    expect(available(after) - available(before)).toBe(-500)
  })

  it('allows partial refunds up to the charge amount, then refuses with the unrefunded amount', async () => {
    const { stripe } = officialClient(7)
    const pi = await paid(stripe)
    await stripe.refunds.create({ payment_intent: pi.id, amount: 1500 })
    const err = await caught(stripe.refunds.create({ payment_intent: pi.id, amount: 600 }))
    expect(err.statusCode).toBe(400)
    expect(err.code).toBe('amount_too_large')
    expect(err.param).toBe('amount')
    expect(err.message).toBe('Refund amount ($6.00) is greater than unrefunded amount on charge ($5.00)')
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge).toMatchObject({ amount_refunded: 1500, refunded: false })
    const rest = await stripe.refunds.create({ charge: charge.id })
    expect(rest.amount).toBe(500)
  })

  it('refuses a refund larger than the charge with 400 and changes nothing', async () => {
    const { sim, stripe } = officialClient(7)
    const pi = await paid(stripe)
    const money = () => {
      const { ledger, charges, events } = sim.snapshot().state as Record<string, unknown>
      return { ledger, charges, events, refunds: (sim.snapshot().state as Record<string, unknown>)['engine.refund'] }
    }
    const before = money()
    expect(before.ledger).toBeDefined()
    const err = await caught(stripe.refunds.create({ payment_intent: pi.id, amount: 2001 }))
    expect(err.code).toBe('amount_too_large')
    expect(err.message).toBe('Refund amount ($20.01) is greater than charge amount ($20.00)')
    expect(money()).toEqual(before)
    expect((await stripe.refunds.list()).data).toHaveLength(0)
  })

  it('refuses a second full refund with charge_already_refunded', async () => {
    const { stripe } = officialClient(7)
    const pi = await paid(stripe)
    await stripe.refunds.create({ payment_intent: pi.id })
    const err = await caught(stripe.refunds.create({ payment_intent: pi.id }))
    expect(err.statusCode).toBe(400)
    expect(err.code).toBe('charge_already_refunded')
    expect(err.message).toBe(`Charge ${pi.latest_charge} has already been refunded.`)
  })

  it('refuses to refund a declined payment', async () => {
    const { stripe } = officialClient(7)
    const err = await caught(
      stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true }),
    )
    const pi = err.payment_intent as Stripe.PaymentIntent
    const refused = await caught(stripe.refunds.create({ payment_intent: pi.id }))
    expect(refused.statusCode).toBe(400)
    expect(refused.type).toBe('StripeInvalidRequestError')
  })

  it('emits charge.refunded with the previous amount_refunded, then refund.created', async () => {
    const { stripe } = officialClient(7)
    const pi = await paid(stripe)
    await stripe.refunds.create({ payment_intent: pi.id, amount: 700 })
    const events = (await stripe.events.list({ limit: 5 })).data.map((e) => e.type)
    expect(events.slice(0, 2)).toEqual(['refund.created', 'charge.refunded'])
    const refunded = (await stripe.events.list({ type: 'charge.refunded' })).data[0] as Stripe.Event
    expect((refunded.data.object as Stripe.Charge).amount_refunded).toBe(700)
    expect(refunded.data.previous_attributes).toMatchObject({ amount_refunded: 0, refunded: false })
  })
})

describe('refunds.cancel', () => {
  it('refuses to cancel a card refund, which never waits for the customer, changing nothing', async () => {
    const { sim, stripe } = officialClient(281)
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 500 })
    const events = sim.admin.events({}).length
    const e = await caught(stripe.refunds.cancel(refund.id))
    expect([e.statusCode, e.type, e.code]).toEqual([400, 'StripeInvalidRequestError', 'refund_not_cancelable'])
    expect(e.message).toContain('Only a refund with a status of requires_action can be canceled.')
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('succeeded')
    expect(sim.admin.events({})).toHaveLength(events)
    const missing = await caught(stripe.refunds.cancel('re_missing'))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
  })
})
