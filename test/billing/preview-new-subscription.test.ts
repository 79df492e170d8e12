import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'
import { missingFields, pinned } from '../versions/helpers.js'
import { retiredClient } from '../versions/retired-client.js'

async function catalogue(stripe: Stripe) {
  const customer = await stripe.customers.create({
    email: 'jenny@example.test',
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  const product = await stripe.products.create({ name: 'Seats' })
  const seat = await stripe.prices.create({
    product: product.id,
    unit_amount: 1000,
    currency: 'usd',
    recurring: { interval: 'month' },
  })
  const support = await stripe.prices.create({
    product: product.id,
    unit_amount: 250,
    currency: 'usd',
    recurring: { interval: 'month' },
  })
  return { customer, product, seat, support }
}

/** Everything a preview must leave as it was: what the lists show and the events. */
async function digest(stripe: Stripe): Promise<string> {
  return JSON.stringify([
    (await stripe.subscriptions.list({ status: 'all' })).data,
    (await stripe.invoices.list()).data,
    (await stripe.prices.list()).data,
    (await stripe.products.list()).data,
    (await stripe.events.list()).data.map((e) => e.id),
  ])
}

describe('the preview of a subscription not made yet', () => {
  it('bills the first period of the items, quantities included, and makes nothing', async () => {
    const { stripe } = setup()
    const { customer, seat, support } = await catalogue(stripe)
    const before = await digest(stripe)
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: seat.id, quantity: 3 }, { price: support.id }] },
    })
    expect(preview.id).toMatch(/^upcoming_in_/)
    expect(preview.amount_due).toBe(3250)
    expect(preview.subtotal).toBe(3250)
    expect(preview.lines.data.map((l) => [l.pricing?.price_details?.price, l.quantity, l.amount])).toEqual([
      [seat.id, 3, 3000],
      [support.id, 1, 250],
    ])
    expect(preview.customer).toBe(customer.id)
    expect(preview.parent?.subscription_details?.subscription).toBeNull()
    expect(missingFields(preview, '2026-10-28.endive')).toEqual([])
    expect(await digest(stripe)).toBe(before)
    await expect(stripe.invoices.retrieve(preview.id)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('answers what the subscription then made bills on its first invoice', async () => {
    const { stripe } = setup()
    const { customer, seat, support } = await catalogue(stripe)
    const coupon = await stripe.coupons.create({ percent_off: 20, duration: 'once' })
    const items = [{ price: seat.id, quantity: 2 }, { price: support.id }]
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items },
      discounts: [{ coupon: coupon.id }],
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items, discounts: [{ coupon: coupon.id }] })
    const first = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(first.amount_due).toBe(1800)
    expect(preview.amount_due).toBe(first.amount_due)
    expect(preview.total_discount_amounts?.map((d) => d.amount)).toEqual([450])
    const expanded = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items },
      discounts: [{ coupon: coupon.id }],
      expand: ['discounts'],
    })
    expect(expanded.discounts.map((d) => typeof d !== 'string' && 'source' in d && d.source?.coupon)).toMatchObject([
      { id: coupon.id },
    ])
    expect(preview.lines.data.map((l) => l.amount)).toEqual(first.lines.data.map((l) => l.amount))
  })

  it('prorates a first period shortened by billing_cycle_anchor as the subscription then made does', async () => {
    const { stripe } = setup()
    const { customer, seat } = await catalogue(stripe)
    const now = customer.created
    const anchor = now + 10 * 86_400
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: seat.id }], billing_cycle_anchor: { type: 'timestamp', timestamp: anchor } },
    })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id }],
      billing_cycle_anchor: anchor,
    })
    const first = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(preview.amount_due).toBeGreaterThan(0)
    expect(preview.amount_due).toBeLessThan(1000)
    expect(preview.amount_due).toBe(first.amount_due)
    expect(preview.lines.data[0]?.period).toEqual(first.lines.data[0]?.period)
  })

  it('previews a price described inline without making it or its product', async () => {
    const { stripe } = setup()
    const { customer, product } = await catalogue(stripe)
    const before = await digest(stripe)
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: {
        items: [
          {
            price_data: { currency: 'usd', product: product.id, unit_amount: 1500, recurring: { interval: 'month' } },
            quantity: 2,
          },
        ],
      },
    })
    expect(preview.amount_due).toBe(3000)
    expect(await digest(stripe)).toBe(before)
  })

  it('bills nothing now during a trial given as subscription_details.trial_end', async () => {
    const { stripe } = setup()
    const { customer, seat } = await catalogue(stripe)
    const now = customer.created
    const trialEnd = now + 14 * 86_400
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: seat.id }], trial_end: trialEnd },
    })
    expect(preview.amount_due).toBe(0)
    expect(preview.lines.data[0]?.period).toEqual({ start: now, end: trialEnd })
    expect(preview.lines.data[0]?.description).toBe('Trial period for Seats')
  })

  it('previews a new subscription even when the customer already has one', async () => {
    const { stripe } = setup()
    const { customer, seat, support } = await catalogue(stripe)
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }] })
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: support.id, quantity: 4 }] },
    })
    expect(preview.amount_due).toBe(1000)
    expect(preview.lines.data).toHaveLength(1)
  })

  it('refuses an unknown price, an unknown customer and items without a price, changing nothing', async () => {
    const { stripe } = setup()
    const { customer, seat } = await catalogue(stripe)
    const before = await digest(stripe)
    await expect(
      stripe.invoices.createPreview({ customer: customer.id, subscription_details: { items: [{ price: 'price_missing' }] } }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'subscription_details[items][0][price]' })
    await expect(
      stripe.invoices.createPreview({ customer: 'cus_missing', subscription_details: { items: [{ price: seat.id }] } }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' })
    await expect(
      stripe.invoices.createPreview({ customer: customer.id, subscription_details: { items: [{ quantity: 2 }] } }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'subscription_details[items][0][price]' })
    await expect(
      stripe.invoices.createPreview({
        customer: customer.id,
        subscription_details: { items: [{ price: seat.id, quantity: -1 }] },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'subscription_details[items][0][quantity]' })
    expect(await digest(stripe)).toBe(before)
  })

  it('reads items given empty as none: the customer without a subscription has no upcoming invoice (404)', async () => {
    const { stripe } = setup()
    const { customer } = await catalogue(stripe)
    const before = await digest(stripe)
    await expect(
      stripe.invoices.createPreview({ customer: customer.id, subscription_details: { items: [] } }),
    ).rejects.toMatchObject({
      statusCode: 404,
      code: 'invoice_upcoming_none',
    })
    expect(await digest(stripe)).toBe(before)
  })

  it('answers the same bytes on the same seed', async () => {
    const run = async () => {
      const { stripe } = setup(7)
      const { customer, seat } = await catalogue(stripe)
      return JSON.stringify(
        await stripe.invoices.createPreview({ customer: customer.id, subscription_details: { items: [{ price: seat.id }] } }),
      )
    }
    expect(await run()).toBe(await run())
  })
})

describe('the upcoming invoice of a subscription not made yet, at 2020-08-27', () => {
  it('answers GET /v1/invoices/upcoming with subscription_items, and its lines', async () => {
    const { stripe } = pinned('2020-08-27')
    const { customer, seat } = await catalogue(stripe)
    const legacy = retiredClient(stripe)
    const upcoming = await legacy.invoices!.retrieveUpcoming!({
      customer: customer.id,
      subscription_items: [{ price: seat.id, quantity: 2 }],
    })
    expect(upcoming.object).toBe('invoice')
    expect(missingFields(upcoming, '2020-08-27')).toEqual([])
    expect(upcoming.amount_due).toBe(2000)
    expect(upcoming.subscription).toBeNull()
    expect(upcoming.lines.data[0].price.id).toBe(seat.id)
    const lines = await legacy.invoices!.listUpcomingLines!({
      customer: customer.id,
      subscription_items: [{ price: seat.id, quantity: 2 }],
    })
    expect(lines.data.map((l: { amount: number }) => l.amount)).toEqual([2000])
    expect((await stripe.subscriptions.list({ status: 'all' })).data).toEqual([])
  })

  it('keeps the subscription_trial_end of then', async () => {
    const { stripe } = pinned('2020-08-27')
    const { customer, seat } = await catalogue(stripe)
    const now = customer.created
    const upcoming = await retiredClient(stripe).invoices!.retrieveUpcoming!({
      customer: customer.id,
      subscription_items: [{ price: seat.id }],
      subscription_trial_end: now + 7 * 86_400,
    })
    expect(upcoming.amount_due).toBe(0)
  })

  it('takes the coupon of then as a discount of the new subscription', async () => {
    const { stripe } = pinned('2020-08-27')
    const { customer, seat } = await catalogue(stripe)
    const coupon = await stripe.coupons.create({ amount_off: 300, currency: 'usd', duration: 'forever' })
    const upcoming = await retiredClient(stripe).invoices!.retrieveUpcoming!({
      customer: customer.id,
      subscription_items: [{ price: seat.id }],
      coupon: coupon.id,
    })
    expect(upcoming.amount_due).toBe(700)
    expect(missingFields(upcoming, '2020-08-27')).toEqual([])
  })

  it('takes the bare subscription_billing_cycle_anchor timestamp of then', async () => {
    const { stripe } = pinned('2020-08-27')
    const { customer, seat } = await catalogue(stripe)
    const upcoming = await retiredClient(stripe).invoices!.retrieveUpcoming!({
      customer: customer.id,
      subscription_items: [{ price: seat.id }],
      subscription_billing_cycle_anchor: customer.created + 10 * 86_400,
    })
    expect(upcoming.amount_due).toBeGreaterThan(0)
    expect(upcoming.amount_due).toBeLessThan(1000)
  })
})
