import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { CURRENT_VERSION } from '../../src/catalogue/versions.js'
import { collect } from '../delivery/helpers.js'
import { pinned } from './helpers.js'

type Obj = Record<string, unknown>

/** A subscription moved from a monthly to a yearly price: its `customer.subscription.updated` carries the previous items. */
async function priceChange(stripe: Stripe): Promise<void> {
  const customer = await stripe.customers.create({
    email: 'a@b.test',
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  const product = await stripe.products.create({ name: 'Plan' })
  const monthly = await stripe.prices.create({
    product: product.id,
    unit_amount: 900,
    currency: 'usd',
    recurring: { interval: 'month' },
  })
  const yearly = await stripe.prices.create({
    product: product.id,
    unit_amount: 9000,
    currency: 'usd',
    recurring: { interval: 'year' },
  })
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id }] })
  await stripe.subscriptions.update(sub.id, {
    items: [{ id: sub.items.data[0]!.id, price: yearly.id }],
    proration_behavior: 'none',
  })
}

const previousItem = (event: { data: { previous_attributes?: unknown } }): Obj =>
  ((event.data.previous_attributes as { items: { data: Obj[] } }).items.data[0] ?? {}) as Obj

describe('previous_attributes of an update event at an older version', () => {
  it('are rendered in the version shape: no field added later, the fields of then restored', async () => {
    const { stripe } = pinned('2022-08-01')
    await priceChange(stripe)
    const events = await stripe.events.list({ type: 'customer.subscription.updated' })
    const event = events.data.find((e) => (e.data.previous_attributes as Obj | undefined)?.items !== undefined)!
    expect(event.api_version).toBe('2022-08-01')
    const item = previousItem(event)
    // Billing periods moved onto items at basil: a 2022 item never had them.
    expect(item).not.toHaveProperty('current_period_end')
    expect(item).not.toHaveProperty('current_period_start')
    // The plan beside the price, as then, with the price of before the change.
    expect(item.plan).toMatchObject({ object: 'plan', interval: 'month', amount: 900 })
    expect((item.price as { recurring: Obj }).recurring).not.toHaveProperty('meter')
  })

  it('stay in the current shape at the current version', async () => {
    const { stripe } = pinned(CURRENT_VERSION)
    await priceChange(stripe)
    const events = await stripe.events.list({ type: 'customer.subscription.updated' })
    const event = events.data.find((e) => (e.data.previous_attributes as Obj | undefined)?.items !== undefined)!
    const item = previousItem(event)
    expect(item).toHaveProperty('current_period_end')
    expect((item.price as { recurring: Obj }).recurring).toMatchObject({ interval: 'month', meter: null })
  })

  it('leave out a change to a field the version did not have', async () => {
    const { stripe } = pinned('2022-08-01')
    const product = await stripe.products.create({ name: 'Plan' })
    await stripe.products.update(product.id, { name: 'Plan 2', marketing_features: [{ name: 'Fast' }] } as never)
    const [event] = (await stripe.events.list({ type: 'product.updated' })).data
    expect(event?.data.previous_attributes).toEqual({ name: 'Plan' })
  })

  it('are rendered at a webhook endpoint api_version from the current ones', async () => {
    const { sim, stripe } = pinned(CURRENT_VERSION)
    await stripe.webhookEndpoints.create({
      url: 'https://old.test/hook',
      enabled_events: ['customer.subscription.updated'],
      api_version: '2022-08-01',
    })
    const got = collect(sim, 'https://old.test/hook')
    await priceChange(stripe)
    await sim.settle()
    const bodies = got.map((g) => JSON.parse(g.raw))
    const event = bodies.find((b) => b.data.previous_attributes?.items !== undefined)
    expect(event.api_version).toBe('2022-08-01')
    const item = previousItem(event)
    expect(item).not.toHaveProperty('current_period_end')
    expect(item.plan).toMatchObject({ object: 'plan', amount: 900 })
    const stored = await stripe.events.retrieve(event.id)
    expect(previousItem(stored)).toHaveProperty('current_period_end')
  })
})
