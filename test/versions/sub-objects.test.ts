import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { CURRENT_VERSION } from '../../src/catalogue/versions.js'
import { pinned } from './helpers.js'

type Obj = Record<string, unknown>

async function paidCharge(stripe: Stripe): Promise<Obj> {
  const intent = (await stripe.paymentIntents.create({
    amount: 1500,
    currency: 'usd',
    payment_method: 'pm_card_visa',
    confirm: true,
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
  })) as unknown as Obj
  const chargeId = (intent.latest_charge as string | undefined) ?? ((intent.charges as { data: Obj[] }).data[0]?.id as string)
  return (await stripe.charges.retrieve(chargeId)) as unknown as Obj
}

describe('fields inside sub-objects walked per version', () => {
  it("drops a sub-object's fields added after the version: a 2022-08-01 charge's card details lack regulated_status", async () => {
    const old = await paidCharge(pinned('2022-08-01').stripe)
    const card = (old.payment_method_details as { card: Obj }).card
    expect(card).not.toHaveProperty('regulated_status')
    expect(card).not.toHaveProperty('network_token')
    expect(card.brand).toBe('visa')
    expect(old.outcome).not.toHaveProperty('advice_code')

    const now = await paidCharge(pinned(CURRENT_VERSION).stripe)
    expect((now.payment_method_details as { card: Obj }).card.regulated_status).toBe('unregulated')
    expect(now.outcome).toHaveProperty('advice_code')
  })

  it('walks sub-objects inside lists and expanded objects: an old price keeps recurring.aggregate_usage and no meter', async () => {
    const { stripe } = pinned('2022-08-01')
    const product = await stripe.products.create({ name: 'Plan' })
    await stripe.prices.create({ product: product.id, unit_amount: 900, currency: 'usd', recurring: { interval: 'month' } })
    const list = (await stripe.prices.list({ expand: ['data.product'] })) as unknown as { data: Obj[] }
    const recurring = list.data[0]?.recurring as Obj
    expect(recurring).toMatchObject({ interval: 'month', aggregate_usage: null })
    expect(recurring).not.toHaveProperty('meter')
    expect(list.data[0]?.product).toMatchObject({ id: product.id })
  })

  it('keeps the same request at the current version in the current shape', async () => {
    const { stripe } = pinned(CURRENT_VERSION)
    const product = await stripe.products.create({ name: 'Plan' })
    const price = (await stripe.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    })) as unknown as { recurring: Obj }
    expect(price.recurring).toHaveProperty('meter')
    expect(price.recurring).not.toHaveProperty('aggregate_usage')
  })
})

describe('nested params of an older version', () => {
  const session = (extra: Obj) => ({
    mode: 'subscription',
    success_url: 'https://shop.test/ok',
    ...extra,
  })

  it('accepts a nested param the version documented and the current one has not (subscription_data[trial_from_plan] at 2022-08-01)', async () => {
    const { stripe } = pinned('2022-08-01')
    const product = await stripe.products.create({ name: 'Plan' })
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const created = await stripe.checkout.sessions.create(
      session({ line_items: [{ price: price.id, quantity: 1 }], subscription_data: { trial_from_plan: true } }) as never,
    )
    expect(created.object).toBe('checkout.session')
    expect(created.mode).toBe('subscription')
  })

  it('refuses the same nested param at the current version with parameter_unknown, and makes no session', async () => {
    const { stripe } = pinned(CURRENT_VERSION)
    const product = await stripe.products.create({ name: 'Plan' })
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const refused = await stripe.checkout.sessions
      .create(session({ line_items: [{ price: price.id, quantity: 1 }], subscription_data: { trial_from_plan: true } }) as never)
      .catch((e: Stripe.errors.StripeError) => e)
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_unknown' })
    expect((await stripe.checkout.sessions.list()).data).toEqual([])
  })
})
