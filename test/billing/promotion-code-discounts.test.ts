import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

async function fixture(stripe: Stripe) {
  const coupon = await stripe.coupons.create({ percent_off: 25, duration: 'forever' })
  const promo = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'SAVE25' })
  const price = await stripe.prices.create({
    unit_amount: 1000,
    currency: 'usd',
    recurring: { interval: 'month' },
    product_data: { name: 'Plan' },
  })
  const customer = await stripe.customers.create({
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  return { coupon, promo, price, customer }
}

describe('subscriptions with a promotion code', () => {
  it("create with discounts[0][promotion_code] and bill the code's coupon", async () => {
    const { stripe } = setup()
    const { promo, price, customer } = await fixture(stripe)
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ promotion_code: promo.id }],
      expand: ['latest_invoice'],
    })
    expect((sub.latest_invoice as Stripe.Invoice).amount_paid).toBe(750)
  })

  it('take a promotion code on update', async () => {
    const { stripe } = setup()
    const { promo, price, customer } = await fixture(stripe)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const updated = await stripe.subscriptions.update(sub.id, { discounts: [{ promotion_code: promo.id }] })
    expect(updated.discounts).toHaveLength(1)
  })

  it('refuse an inactive promotion code with 400 naming it, and create nothing', async () => {
    const { stripe, sim } = setup()
    const { promo, price, customer } = await fixture(stripe)
    await stripe.promotionCodes.update(promo.id, { active: false })
    const error = await stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ promotion_code: promo.id }] })
      .then(
        () => undefined,
        (e: { statusCode?: number; param?: string }) => e,
      )
    expect(error).toMatchObject({ statusCode: 400, param: 'discounts[0][promotion_code]' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([])
    expect(sim.service.events.all().some((e) => e.type === 'customer.subscription.created')).toBe(false)
  })

  it('refuse an unknown promotion code with 400 resource_missing', async () => {
    const { stripe } = setup()
    const { price, customer } = await fixture(stripe)
    const error = await stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ promotion_code: 'promo_nope' }] })
      .then(
        () => undefined,
        (e: { statusCode?: number; code?: string; param?: string }) => e,
      )
    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'discounts[0][promotion_code]' })
  })
})
