import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { billingClient, caught, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

const FEB1 = Date.UTC(2026, 1, 1) / 1000
const MAR1 = Date.UTC(2026, 2, 1) / 1000
const APR1 = Date.UTC(2026, 3, 1) / 1000

/** A customer with a card and a $30 monthly price, from Jan 1. */
async function setUp() {
  const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
  const { stripe } = b
  const { customer } = await payingCustomer(stripe)
  const { price } = await monthlyPrice(stripe, 3000, 'Seat')
  return { ...b, customer, price }
}

/** The subscription's invoices, oldest first, after the clock reaches `unix` plus the grace hour. */
async function invoicesUntil(b: Awaited<ReturnType<typeof setUp>>, sub: string, unix: number) {
  await b.sim.clock.tickAsync(unix * 1000 + HOUR - b.sim.clock.now)
  return (await b.stripe.invoices.list({ subscription: sub })).data.reverse()
}

describe('coupons (official client)', () => {
  it('creates, retrieves, lists and deletes a coupon', async () => {
    const { stripe } = await setUp()
    const coupon = await stripe.coupons.create({ percent_off: 25, duration: 'forever', id: 'QUARTER' })
    expect(coupon).toMatchObject({ id: 'QUARTER', object: 'coupon', percent_off: 25, duration: 'forever', valid: true })
    expect((await stripe.coupons.retrieve('QUARTER')).percent_off).toBe(25)
    expect((await stripe.coupons.list()).data.map((c) => c.id)).toEqual(['QUARTER'])
    expect(await stripe.coupons.del('QUARTER')).toMatchObject({ id: 'QUARTER', deleted: true })
  })

  it('refuses a coupon with neither percent_off nor amount_off with 400 and creates nothing', async () => {
    const { stripe } = await setUp()
    const refused = await caught(stripe.coupons.create({ duration: 'once' }))
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'percent_off' })
    expect((await stripe.coupons.list()).data).toHaveLength(0)
  })

  it('refuses amount_off without currency, and repeating without duration_in_months, with 400', async () => {
    const { stripe } = await setUp()
    expect(await caught(stripe.coupons.create({ amount_off: 500 }))).toMatchObject({
      code: 'parameter_missing',
      param: 'currency',
    })
    expect(await caught(stripe.coupons.create({ percent_off: 10, duration: 'repeating' }))).toMatchObject({
      code: 'parameter_missing',
      param: 'duration_in_months',
    })
  })

  it('refuses percent_off above 100 with 400', async () => {
    const { stripe } = await setUp()
    expect(await caught(stripe.coupons.create({ percent_off: 150 }))).toMatchObject({
      code: 'parameter_invalid',
      param: 'percent_off',
    })
  })
})

describe('discounts on subscriptions (official client)', () => {
  it('a percent_off coupon takes its share off the first invoice, with total_discount_amounts and line discount_amounts', async () => {
    const { stripe, customer, price } = await setUp()
    await stripe.coupons.create({ percent_off: 25, duration: 'forever', id: 'QUARTER' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ coupon: 'QUARTER' }],
    })
    expect(sub.discounts).toHaveLength(1)
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    const discount = sub.discounts[0] as string
    expect(invoice).toMatchObject({ subtotal: 3000, total: 2250, amount_paid: 2250, discounts: [discount] })
    expect(invoice.total_discount_amounts).toEqual([{ amount: 750, discount }])
    expect(invoice.lines.data[0]?.discount_amounts).toEqual([{ amount: 750, discount }])
  })

  it('an amount_off coupon takes a fixed amount off, never below 0', async () => {
    const { stripe, customer, price } = await setUp()
    await stripe.coupons.create({ amount_off: 5000, currency: 'usd', duration: 'forever', id: 'BIG' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ coupon: 'BIG' }],
    })
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(invoice).toMatchObject({ subtotal: 3000, total: 0, amount_due: 0, status: 'paid' })
  })

  it('a once coupon applies to the first invoice only', async () => {
    const b = await setUp()
    await b.stripe.coupons.create({ percent_off: 50, duration: 'once', id: 'HALF' })
    const sub = await b.stripe.subscriptions.create({
      customer: b.customer.id,
      items: [{ price: b.price.id }],
      discounts: [{ coupon: 'HALF' }],
    })
    const totals = (await invoicesUntil(b, sub.id, FEB1)).map((i) => i.total)
    expect(totals).toEqual([1500, 3000])
    expect((await b.stripe.subscriptions.retrieve(sub.id)).discounts).toEqual([])
  })

  it('a repeating coupon applies for duration_in_months', async () => {
    const b = await setUp()
    await b.stripe.coupons.create({ percent_off: 10, duration: 'repeating', duration_in_months: 2, id: 'TWO' })
    const sub = await b.stripe.subscriptions.create({
      customer: b.customer.id,
      items: [{ price: b.price.id }],
      discounts: [{ coupon: 'TWO' }],
    })
    const totals = (await invoicesUntil(b, sub.id, MAR1)).map((i) => i.total)
    expect(totals).toEqual([2700, 2700, 3000])
    const discount = (await b.stripe.subscriptions.retrieve(sub.id, { expand: ['discounts'] })).discounts[0] as Stripe.Discount
    expect(discount).toMatchObject({ object: 'discount', end: MAR1, subscription: sub.id, source: { type: 'coupon' } })
  })

  it('a forever coupon applies to every invoice', async () => {
    const b = await setUp()
    await b.stripe.coupons.create({ percent_off: 10, duration: 'forever', id: 'ALWAYS' })
    const sub = await b.stripe.subscriptions.create({
      customer: b.customer.id,
      items: [{ price: b.price.id }],
      discounts: [{ coupon: 'ALWAYS' }],
    })
    const totals = (await invoicesUntil(b, sub.id, APR1)).map((i) => i.total)
    expect(totals).toEqual([2700, 2700, 2700, 2700])
  })

  it('a coupon added by update applies from the next invoice, and the preview shows it', async () => {
    const b = await setUp()
    await b.stripe.coupons.create({ amount_off: 1000, currency: 'usd', duration: 'forever', id: 'TEN' })
    const sub = await b.stripe.subscriptions.create({ customer: b.customer.id, items: [{ price: b.price.id }] })
    await b.stripe.subscriptions.update(sub.id, { discounts: [{ coupon: 'TEN' }] })
    expect((await b.stripe.invoices.createPreview({ subscription: sub.id })).total).toBe(2000)
    const totals = (await invoicesUntil(b, sub.id, FEB1)).map((i) => i.total)
    expect(totals).toEqual([3000, 2000])
  })

  it('refuses an unknown coupon with 400 and creates no subscription', async () => {
    const { stripe, customer, price } = await setUp()
    const refused = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ coupon: 'NOPE' }] }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'discounts[0][coupon]' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
  })
})
