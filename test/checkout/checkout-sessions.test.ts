import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup, stateOf } from '../accounts/helpers.js'

const SUCCESS = 'https://shop.test/ok'

async function prices(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Tee' })
  const once = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 2000 })
  const monthly = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1500,
    recurring: { interval: 'month' },
  })
  const euro = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 900 })
  const retired = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 100 })
  await stripe.prices.update(retired.id, { active: false })
  const customer = await stripe.customers.create({ email: 'c@shop.test' })
  return { once, monthly, euro, retired, customer }
}

const refusal = (e: unknown) => {
  const r = e as { statusCode: number; raw: { code: string; param?: string; message: string } }
  return [r.statusCode, r.raw.code, r.raw.param, r.raw.message]
}

describe('checkout.sessions.create checks as the provider does', () => {
  it.each([
    ['no mode', () => ({ line_items: [] }), 'mode', /mode/],
    ['no line items in payment mode', () => ({ mode: 'payment' }), 'line_items', /line_items/],
    [
      'a recurring price in payment mode',
      (p: any) => ({ mode: 'payment', line_items: [{ price: p.monthly.id }] }),
      'line_items[0][price]',
      /recurring price/,
    ],
    [
      'no recurring price in subscription mode',
      (p: any) => ({ mode: 'subscription', line_items: [{ price: p.once.id }] }),
      'line_items',
      /at least one recurring/,
    ],
    [
      'an inactive price',
      (p: any) => ({ mode: 'payment', line_items: [{ price: p.retired.id }] }),
      'line_items[0][price]',
      /inactive/,
    ],
    [
      'two currencies',
      (p: any) => ({ mode: 'payment', line_items: [{ price: p.once.id }, { price: p.euro.id }] }),
      'line_items',
      /same currency/,
    ],
    [
      'line items in setup mode',
      (p: any) => ({ mode: 'setup', currency: 'usd', line_items: [{ price: p.once.id }] }),
      'line_items',
      /setup/,
    ],
    ['setup mode without a currency', () => ({ mode: 'setup' }), 'currency', /currency/],
    [
      'customer_creation in subscription mode',
      (p: any) => ({ mode: 'subscription', customer_creation: 'always', line_items: [{ price: p.monthly.id }] }),
      'customer_creation',
      /customer_creation/,
    ],
    [
      'customer and customer_email',
      (p: any) => ({ mode: 'payment', customer: p.customer.id, customer_email: 'a@b.test', line_items: [{ price: p.once.id }] }),
      'customer_email',
      /one of these parameters/,
    ],
    [
      'expires_at beyond 24 hours',
      (p: any) => ({ mode: 'payment', expires_at: 1767225600 + 25 * 3600, line_items: [{ price: p.once.id }] }),
      'expires_at',
      /24 hours/,
    ],
  ])('refuses %s with 400 on its param, creating nothing', async (_, params, param, message) => {
    const { sim, stripe } = setup()
    const p = await prices(stripe)
    const state = stateOf(sim)
    const got = await stripe.checkout.sessions
      .create({ success_url: SUCCESS, ...(params as (p: unknown) => Record<string, unknown>)(p) } as never)
      .then(() => undefined, refusal)
    expect(got?.[0]).toBe(400)
    expect(got?.[2]).toBe(param)
    expect(String(got?.[3])).toMatch(message)
    expect(stateOf(sim)).toBe(state)
  })
})

describe('checkout session amounts and line items', () => {
  it('computes subtotals, a percent discount, exclusive tax and shipping, per line and in total', async () => {
    const { stripe } = setup()
    const { once } = await prices(stripe)
    const coupon = await stripe.coupons.create({ percent_off: 10, duration: 'once' })
    const tax = await stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: false })
    const shipping = await stripe.shippingRates.create({
      display_name: 'Ground',
      type: 'fixed_amount',
      fixed_amount: { amount: 500, currency: 'usd' },
    })
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: SUCCESS,
      discounts: [{ coupon: coupon.id }],
      shipping_options: [{ shipping_rate: shipping.id }],
      line_items: [{ price: once.id, quantity: 3, tax_rates: [tax.id] }],
    })
    // 6000 - 600 discount = 5400; tax 20% = 1080; shipping 500.
    expect(session).toMatchObject({
      amount_subtotal: 6000,
      amount_total: 6980,
      currency: 'usd',
      total_details: { amount_discount: 600, amount_shipping: 500, amount_tax: 1080 },
      shipping_cost: { amount_total: 500, shipping_rate: shipping.id },
    })
    const items = await stripe.checkout.sessions.listLineItems(session.id)
    expect(items.data[0]).toMatchObject({
      object: 'item',
      quantity: 3,
      amount_subtotal: 6000,
      amount_discount: 600,
      amount_tax: 1080,
      amount_total: 6480,
      price: { id: once.id },
    })
  })

  it('refuses a missing coupon, tax rate or shipping rate with 400 resource_missing', async () => {
    const { stripe } = setup()
    const { once } = await prices(stripe)
    const base = { mode: 'payment' as const, success_url: SUCCESS }
    const line = { price: once.id, quantity: 1 }
    for (const [params, param] of [
      [{ line_items: [line], discounts: [{ coupon: 'nope' }] }, 'discounts[0][coupon]'],
      [{ line_items: [{ ...line, tax_rates: ['txr_nope'] }] }, 'line_items[0][tax_rates][0]'],
      [{ line_items: [line], shipping_options: [{ shipping_rate: 'shr_nope' }] }, 'shipping_options[0][shipping_rate]'],
    ] as const) {
      const got = await stripe.checkout.sessions.create({ ...base, ...params } as never).then(() => undefined, refusal)
      expect(got?.slice(0, 3), param).toEqual([400, 'resource_missing', param])
    }
    expect((await stripe.checkout.sessions.list()).data).toEqual([])
  })
})

describe('checkout session expiry', () => {
  it('expires an open session at its expires_at with checkout.session.expired, on the clock', async () => {
    const { sim, stripe } = setup()
    const { once } = await prices(stripe)
    const now = Math.floor(sim.clock.now / 1000)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: SUCCESS,
      expires_at: now + 3600,
      line_items: [{ price: once.id }],
    })
    expect(session.expires_at).toBe(now + 3600)
    await sim.clock.tickAsync(3599 * 1000)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
    await sim.clock.tickAsync(1000)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired')
    const expired = sim.admin.events({ type: 'checkout.session.expired' })
    expect(expired.map((e) => (e.body as { data: { object: { id: string } } }).data.object.id)).toEqual([session.id])
    await expect(sim.customer.completeCheckout(session.id)).rejects.toMatchObject({ status: 400, message: /expired/ })
  })

  it('leaves a completed session alone at its expiry', async () => {
    const { sim, stripe } = setup()
    const { once } = await prices(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: SUCCESS,
      line_items: [{ price: once.id }],
    })
    await sim.customer.completeCheckout(session.id)
    await sim.clock.tickAsync(25 * 3600 * 1000)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('complete')
    expect(sim.admin.events({ type: 'checkout.session.expired' })).toEqual([])
  })

  it('expire refuses a completed session with 400, changing nothing', async () => {
    const { sim, stripe } = setup()
    const { once } = await prices(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: SUCCESS,
      line_items: [{ price: once.id }],
    })
    await sim.customer.completeCheckout(session.id)
    const state = stateOf(sim)
    const got = await stripe.checkout.sessions.expire(session.id).then(() => undefined, refusal)
    expect(got?.[0]).toBe(400)
    expect(stateOf(sim)).toBe(state)
  })
})
