import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

type Refusal = { statusCode?: number; code?: string; param?: string; message?: string }

async function refusal(p: Promise<unknown>): Promise<Refusal | undefined> {
  return p.then(
    () => undefined,
    (e: Refusal) => e,
  )
}

async function plan(stripe: Stripe, unitAmount = 1000) {
  const price = await stripe.prices.create({
    unit_amount: unitAmount,
    currency: 'usd',
    recurring: { interval: 'month' },
    product_data: { name: 'Plan' },
  })
  const customer = await stripe.customers.create({
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  return { price, customer }
}

async function code(
  stripe: Stripe,
  extra: Partial<Stripe.PromotionCodeCreateParams> = {},
  coupon: Partial<Stripe.CouponCreateParams> = {},
) {
  const c = await stripe.coupons.create({ percent_off: 50, duration: 'forever', ...coupon })
  return stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: c.id }, ...extra })
}

const PARAM = 'discounts[0][promotion_code]'

describe('promotion code restrictions on subscriptions', () => {
  it('refuses a code for first-time customers when the customer has paid before, and creates nothing', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe)
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const promo = await code(stripe, { restrictions: { first_time_transaction: true } })
    const error = await refusal(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        discounts: [{ promotion_code: promo.id }],
      }),
    )
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
    expect(error?.message).toContain('cannot be redeemed because the associated customer has prior transactions')
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(1)
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(0)
  })

  it('takes a first-time code from a customer who has never paid', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe)
    const promo = await code(stripe, { restrictions: { first_time_transaction: true } })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ promotion_code: promo.id }],
      expand: ['latest_invoice'],
    })
    expect((sub.latest_invoice as Stripe.Invoice).amount_paid).toBe(500)
  })

  it('refuses an order below the minimum amount, in its currency, and takes one at it', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe, 999)
    const promo = await code(stripe, { restrictions: { minimum_amount: 1000, minimum_amount_currency: 'usd' } })
    const error = await refusal(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        discounts: [{ promotion_code: promo.id }],
      }),
    )
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
    expect(error?.message).toContain('requires a minimum order of 10.00 usd')
    const two = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id, quantity: 2 }],
      discounts: [{ promotion_code: promo.id }],
    })
    expect(two.discounts).toHaveLength(1)
  })

  it('refuses a code restricted to another customer, and takes it for that customer', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe)
    const other = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    const promo = await code(stripe, { customer: other.id })
    const error = await refusal(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        discounts: [{ promotion_code: promo.id }],
      }),
    )
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
    expect(error?.message).toContain('cannot be redeemed by this customer')
    await stripe.subscriptions.create({
      customer: other.id,
      items: [{ price: price.id }],
      discounts: [{ promotion_code: promo.id }],
    })
  })

  it('refuses an expired code', async () => {
    const { stripe, sim } = setup()
    const { price, customer } = await plan(stripe)
    const promo = await code(stripe, { expires_at: Math.floor(sim.clock.now / 1000) + 3600 })
    await sim.clock.tickAsync(2 * 3600 * 1000)
    const error = await refusal(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        discounts: [{ promotion_code: promo.id }],
      }),
    )
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
    expect(error?.message).toContain('has expired')
  })

  it('counts redemptions on the code and its coupon, names the code on the discount, and refuses a used-up code', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe)
    const promo = await code(stripe, { max_redemptions: 1 })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ promotion_code: promo.id }],
      expand: ['discounts'],
    })
    expect((sub.discounts[0] as Stripe.Discount).promotion_code).toBe(promo.id)
    const after = await stripe.promotionCodes.retrieve(promo.id)
    expect(after.times_redeemed).toBe(1)
    const couponId = typeof after.promotion.coupon === 'string' ? after.promotion.coupon : after.promotion.coupon?.id
    expect((await stripe.coupons.retrieve(couponId as string)).times_redeemed).toBe(1)
    const error = await refusal(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        discounts: [{ promotion_code: promo.id }],
      }),
    )
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
    expect(error?.message).toMatch(/maximum number of redemptions|inactive/)
  })

  it('counts a code given on update once, not again when the same discounts are sent again', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe)
    const promo = await code(stripe)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await stripe.subscriptions.update(sub.id, { discounts: [{ promotion_code: promo.id }] })
    await stripe.subscriptions.update(sub.id, { discounts: [{ promotion_code: promo.id }] })
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1)
  })
})

describe('coupon redemption limits', () => {
  it('refuses a coupon past its redeem_by with 400 coupon_expired', async () => {
    const { stripe, sim } = setup()
    const { price, customer } = await plan(stripe)
    const coupon = await stripe.coupons.create({ percent_off: 10, redeem_by: Math.floor(sim.clock.now / 1000) + 60 })
    await sim.clock.tickAsync(120 * 1000)
    const error = await refusal(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ coupon: coupon.id }] }),
    )
    expect(error).toMatchObject({ statusCode: 400, code: 'coupon_expired', param: 'discounts[0][coupon]' })
  })

  it('counts times_redeemed and is no longer valid once used max_redemptions times', async () => {
    const { stripe } = setup()
    const { price, customer } = await plan(stripe)
    const coupon = await stripe.coupons.create({ percent_off: 10, max_redemptions: 1 })
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ coupon: coupon.id }] })
    const used = await stripe.coupons.retrieve(coupon.id)
    expect(used).toMatchObject({ times_redeemed: 1, valid: false })
    const error = await refusal(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ coupon: coupon.id }] }),
    )
    expect(error).toMatchObject({ statusCode: 400, code: 'coupon_expired' })
  })
})

describe('promotion codes on checkout sessions', () => {
  it('refuses a session whose subtotal is below the minimum amount', async () => {
    const { stripe } = setup()
    const price = await stripe.prices.create({ unit_amount: 500, currency: 'usd', product_data: { name: 'Tee' } })
    const promo = await code(stripe, { restrictions: { minimum_amount: 1000, minimum_amount_currency: 'usd' } })
    const error = await refusal(
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: price.id, quantity: 1 }],
        discounts: [{ promotion_code: promo.id }],
        success_url: 'https://example.com/ok',
      }),
    )
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
  })

  it('counts the redemption when the session is paid', async () => {
    const { stripe, sim } = setup()
    const price = await stripe.prices.create({ unit_amount: 2000, currency: 'usd', product_data: { name: 'Tee' } })
    const promo = await code(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      discounts: [{ promotion_code: promo.id }],
      success_url: 'https://example.com/ok',
    })
    expect(session.amount_total).toBe(1000)
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(0)
    await sim.customer.completeCheckout(session.id)
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1)
  })

  it('discounts the subscription a subscription-mode session makes, which redeems the code', async () => {
    const { stripe, sim } = setup()
    const { price } = await plan(stripe)
    const promo = await code(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      discounts: [{ promotion_code: promo.id }],
      success_url: 'https://example.com/ok',
    })
    await sim.customer.completeCheckout(session.id)
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription.latest_invoice'] })
    const invoice = (done.subscription as Stripe.Subscription).latest_invoice as Stripe.Invoice
    expect(invoice.amount_paid).toBe(500)
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1)
  })
})

describe('promotion codes on manual invoices', () => {
  it("discounts the invoice by the code's coupon and counts the redemption", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({})
    await stripe.invoiceItems.create({ customer: customer.id, amount: 4000, currency: 'usd' })
    const promo = await code(stripe)
    const invoice = await stripe.invoices.create({
      customer: customer.id,
      pending_invoice_items_behavior: 'include',
      discounts: [{ promotion_code: promo.id }],
      expand: ['discounts'],
    })
    expect(invoice.subtotal).toBe(4000)
    expect(invoice.total).toBe(2000)
    expect((invoice.discounts[0] as Stripe.Discount).promotion_code).toBe(promo.id)
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1)
    const finalized = await stripe.invoices.finalizeInvoice(invoice.id as string)
    expect(finalized.amount_due).toBe(2000)
  })

  it('refuses a code restricted to another customer, creating no invoice', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({})
    const other = await stripe.customers.create({})
    const promo = await code(stripe, { customer: other.id })
    const error = await refusal(stripe.invoices.create({ customer: customer.id, discounts: [{ promotion_code: promo.id }] }))
    expect(error).toMatchObject({ statusCode: 400, param: PARAM })
    expect((await stripe.invoices.list({ customer: customer.id })).data).toEqual([])
  })
})
