import { describe, expect, it } from 'vitest'
import { billingClient, caught, payingCustomer } from './helpers.js'

/**
 * Regression tests for the subscription defects found by the outside-in review (issue 15), fixed
 * in src/domain/billing/subscriptions/ and src/domain/billing/.
 */

async function subscribed() {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe)
  const product = await b.stripe.products.create({ name: 'Seat' })
  const price = await b.stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
  })
  const other = await b.stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 300,
    recurring: { interval: 'month' },
  })
  const sub = await b.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  const item = sub.items.data[0]?.id as string
  return { ...b, customer, price, other, sub, item }
}

describe('subscription items', () => {
  it('refuses a negative quantity on subscriptionItems.update with 400 and keeps the old one', async () => {
    const { stripe, sub, item } = await subscribed()
    expect(await caught(stripe.subscriptionItems.update(item, { quantity: -3 }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'quantity',
    })
    expect((await stripe.subscriptionItems.retrieve(item)).quantity).toBe(1)
    expect((await stripe.invoices.createPreview({ subscription: sub.id })).amount_due).toBe(1000)
  })

  it('refuses subscriptionItems.create on an unknown subscription with 400 resource_missing', async () => {
    const { stripe, price } = await subscribed()
    expect(await caught(stripe.subscriptionItems.create({ subscription: 'sub_nope', price: price.id }))).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'subscription',
    })
  })

  it("adds an item made by subscriptionItems.create to the subscription's items, on the subscription's period", async () => {
    const { stripe, sub, other } = await subscribed()
    const added = await stripe.subscriptionItems.create({ subscription: sub.id, price: other.id, quantity: 2 })
    const period = sub.items.data[0]
    expect(added).toMatchObject({
      current_period_start: period?.current_period_start,
      current_period_end: period?.current_period_end,
      quantity: 2,
    })
    const after = await stripe.subscriptions.retrieve(sub.id)
    expect(after.items.data.map((i) => i.id)).toContain(added.id)
    // The next invoice: the new period at 1000 + 2 × 300, and the proration for adding the item now
    // (2 × 300 for the whole period left), since the pinned client documents
    // SubscriptionItemCreateParams.proration_behavior as "The default value is `create_prorations`".
    expect((await stripe.invoices.createPreview({ subscription: sub.id })).amount_due).toBe(1600 + 600)
  })

  it("refuses deleting a subscription's last item with 400 and keeps it", async () => {
    const { stripe, sub, item } = await subscribed()
    expect(await caught(stripe.subscriptionItems.del(item))).toMatchObject({ statusCode: 400 })
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data.map((i) => i.id)).toEqual([item])
  })

  it('refuses a quantity change on an item of a canceled subscription with 400', async () => {
    const { stripe, sub, item } = await subscribed()
    await stripe.subscriptions.cancel(sub.id)
    expect(await caught(stripe.subscriptionItems.update(item, { quantity: 5 }))).toMatchObject({ statusCode: 400 })
    expect((await stripe.subscriptionItems.retrieve(item)).quantity).toBe(1)
  })
})

describe('subscriptions', () => {
  it('refuses two items with the same price with 400, creating nothing', async () => {
    const { stripe, customer, price } = await subscribed()
    const before = (await stripe.subscriptions.list({ customer: customer.id })).data.length
    expect(
      await caught(stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }, { price: price.id }] })),
    ).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'items[1][price]' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(before)
  })

  it('lists subscriptions that are not canceled by default, and every one with status=all', async () => {
    const { stripe, customer, price, sub } = await subscribed()
    const gone = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await stripe.subscriptions.cancel(gone.id)
    expect((await stripe.subscriptions.list()).data.map((s) => s.id)).toEqual([sub.id])
    expect((await stripe.subscriptions.list({ status: 'all' })).data.map((s) => s.id).sort()).toEqual([sub.id, gone.id].sort())
    expect((await stripe.subscriptions.list({ status: 'canceled' })).data.map((s) => s.id)).toEqual([gone.id])
  })

  it('updates the metadata of a canceled subscription, and refuses other changes with 400', async () => {
    const { stripe, sub, item } = await subscribed()
    await stripe.subscriptions.cancel(sub.id)
    expect((await stripe.subscriptions.update(sub.id, { metadata: { note: 'churned' } })).metadata).toEqual({ note: 'churned' })
    const refused = await caught(stripe.subscriptions.update(sub.id, { items: [{ id: item, quantity: 5 }] }))
    expect(refused).toMatchObject({ statusCode: 400, message: expect.stringContaining('canceled subscription') })
    expect(refused.code).not.toBe('resource_missing')
  })

  it('refuses a quantity whose amount is past exact integers with 400 instead of billing an inexact amount', async () => {
    const { stripe, customer, price } = await subscribed()
    const huge = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id, quantity: 1e15 }] }),
    )
    expect(huge).toMatchObject({ statusCode: 400, param: 'items[0][quantity]' })
  })

  it('refuses more than 20 items with 400, creating nothing', async () => {
    const { stripe, customer, price } = await subscribed()
    const prices = [price.id]
    for (let i = 1; i < 21; i++) {
      const p = await stripe.prices.create({
        product: price.product as string,
        currency: 'usd',
        unit_amount: 100 + i,
        recurring: { interval: 'month' },
      })
      prices.push(p.id)
    }
    const before = (await stripe.subscriptions.list({ customer: customer.id })).data.length
    const refused = await caught(stripe.subscriptions.create({ customer: customer.id, items: prices.map((p) => ({ price: p })) }))
    expect(refused).toMatchObject({ statusCode: 400, param: 'items' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(before)
  })

  it('cancels a subscription at its cancel_at, given on create or on update', async () => {
    const { sim, stripe, customer, price, sub } = await subscribed()
    const at = Math.floor(sim.clock.now / 1000) + 5 * 86_400
    const made = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], cancel_at: at })
    expect(made.cancel_at).toBe(at)
    await stripe.subscriptions.update(sub.id, { cancel_at: at })
    await sim.clock.tickAsync(6 * 86_400_000)
    for (const id of [made.id, sub.id]) {
      expect(await stripe.subscriptions.retrieve(id)).toMatchObject({ status: 'canceled', ended_at: at })
    }
  })

  it('refuses a cancel_at in the past with 400', async () => {
    const { sim, stripe, sub } = await subscribed()
    const refused = await caught(stripe.subscriptions.update(sub.id, { cancel_at: Math.floor(sim.clock.now / 1000) - 100 }))
    expect(refused).toMatchObject({ statusCode: 400, param: 'cancel_at' })
    expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at).toBeNull()
  })

  it('starts a trial to trial_end on update, moving the period end there', async () => {
    const { sim, stripe, sub } = await subscribed()
    const end = Math.floor(sim.clock.now / 1000) + 3 * 86_400
    const updated = await stripe.subscriptions.update(sub.id, { trial_end: end })
    expect(updated).toMatchObject({ status: 'trialing', trial_end: end })
    expect(updated.items.data[0]?.current_period_end).toBe(end)
  })

  it('lists only the subscriptions with an item of the price asked for', async () => {
    const { stripe, sub, price, other } = await subscribed()
    expect((await stripe.subscriptions.list({ price: price.id })).data.map((s) => s.id)).toEqual([sub.id])
    expect((await stripe.subscriptions.list({ price: other.id })).data).toEqual([])
  })
})

describe('the upcoming invoice', () => {
  it('previews a proposed quantity change given in subscription_details', async () => {
    const { stripe, sub, item } = await subscribed()
    const preview = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: { items: [{ id: item, quantity: 5 }], proration_behavior: 'none' },
    })
    expect(preview.amount_due).toBe(5000)
    expect((await stripe.subscriptionItems.retrieve(item)).quantity).toBe(1)
  })
})
