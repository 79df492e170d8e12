import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

async function plan(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Plan' })
  return stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 1500, recurring: { interval: 'month' } })
}

describe('the objects a browser confirms', () => {
  it('a trialing default_incomplete subscription has a pending setup intent with a client secret', async () => {
    const { stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 7,
      payment_behavior: 'default_incomplete',
      expand: ['pending_setup_intent'],
    })
    expect(sub.status).toBe('trialing')
    const si = sub.pending_setup_intent as Stripe.SetupIntent
    expect(si).toMatchObject({
      object: 'setup_intent',
      customer: customer.id,
      usage: 'off_session',
      status: 'requires_payment_method',
    })
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_`))
    expect((await stripe.subscriptions.retrieve(sub.id)).pending_setup_intent).toBe(si.id)
  })

  it('a subscription that pays now, or a trial without default_incomplete, has none', async () => {
    const { stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    } as never)
    const paid = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const trial = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], trial_period_days: 7 })
    expect([paid.pending_setup_intent, trial.pending_setup_intent]).toEqual([null, null])
  })

  it('payment intents and setup intents carry a client secret of their id', async () => {
    const { stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 500, currency: 'usd' })
    const si = await stripe.setupIntents.create({})
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`))
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_`))
  })
})
