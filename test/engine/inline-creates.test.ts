import { describe, expect, it } from 'vitest'
import { setup } from './helpers.js'

/** The types of the events emitted so far, oldest first. */
async function eventTypes(stripe: ReturnType<typeof setup>['stripe']): Promise<string[]> {
  return (await stripe.events.list({ limit: 100 })).data.map((e) => e.type).reverse()
}

describe('inline creates make the objects they describe (official client)', () => {
  it('prices.create with product_data makes a retrievable product, product.created before price.created', async () => {
    const { stripe } = setup()
    const price = await stripe.prices.create({ product_data: { name: 'Inline' }, currency: 'usd', unit_amount: 900 })
    expect(price.product).toMatch(/^prod_/)
    const product = await stripe.products.retrieve(price.product as string)
    expect(product.name).toBe('Inline')
    expect(await eventTypes(stripe)).toEqual(['product.created', 'price.created'])
  })

  it('refuses product_data without a name with 400 and makes nothing', async () => {
    const { stripe } = setup()
    await expect(stripe.prices.create({ product_data: { name: '' }, currency: 'usd', unit_amount: 900 })).rejects.toMatchObject({
      statusCode: 400,
    })
    expect((await stripe.products.list()).data).toEqual([])
    expect((await stripe.prices.list()).data).toEqual([])
  })

  it('subscriptions.create with price_data makes the price, and the item and its plan show it', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'pd@example.com' })
    const product = await stripe.products.create({ name: 'Seats' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price_data: { currency: 'usd', product: product.id, unit_amount: 0, recurring: { interval: 'month' } } }],
    })
    const item = sub.items.data[0]
    const price = await stripe.prices.retrieve(item?.price.id as string)
    expect([price.product, price.unit_amount, price.recurring?.interval]).toEqual([product.id, 0, 'month'])
    expect(item?.plan.id).toBe(price.id)
  })

  it('subscriptions.update adds an item from price_data; a refused update makes no price', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'pd3@example.com' })
    const product = await stripe.products.create({ name: 'Base' })
    const base = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 0,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: base.id }] })
    const before = (await stripe.prices.list({ limit: 100 })).data.length
    await expect(
      stripe.subscriptions.update(sub.id, {
        items: [
          { price_data: { currency: 'usd', product: product.id, unit_amount: 0, recurring: { interval: 'month' } } },
          { price: 'price_missing' },
        ],
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'items[1][price]' })
    expect((await stripe.prices.list({ limit: 100 })).data.length).toBe(before)
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ price_data: { currency: 'usd', product: product.id, unit_amount: 0, recurring: { interval: 'month' } } }],
      proration_behavior: 'none',
    })
    const added = updated.items.data.find((i) => i.price.id !== base.id)
    expect((await stripe.prices.retrieve(added?.price.id as string)).product).toBe(product.id)
    expect(added?.plan.id).toBe(added?.price.id)
  })

  it('subscriptionItems.create and update take price_data', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'pd2@example.com' })
    const product = await stripe.products.create({ name: 'Add-on' })
    const base = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 0,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: base.id }] })
    const added = await stripe.subscriptionItems.create({
      subscription: sub.id,
      price_data: { currency: 'usd', product: product.id, unit_amount: 0, recurring: { interval: 'month' } },
      proration_behavior: 'none',
    })
    expect((await stripe.prices.retrieve(added.price.id)).product).toBe(product.id)
    const changed = await stripe.subscriptionItems.update(added.id, {
      price_data: { currency: 'usd', product: product.id, unit_amount: 0, recurring: { interval: 'month' } },
      proration_behavior: 'none',
    })
    expect(changed.price.id).not.toBe(added.price.id)
    expect(changed.plan.id).toBe(changed.price.id)
  })

  it('invoiceItems.create with price_data bills the new price', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'ii@example.com' })
    const product = await stripe.products.create({ name: 'Setup fee' })
    const item = await stripe.invoiceItems.create({
      customer: customer.id,
      price_data: { currency: 'usd', product: product.id, unit_amount: 2500 },
      quantity: 2,
    })
    expect(item.amount).toBe(5000)
    const priceId = item.pricing?.price_details?.price as string
    expect((await stripe.prices.retrieve(priceId)).unit_amount).toBe(2500)
  })

  it('checkout line items with price_data and product_data make both, and expand[]=line_items shows them', async () => {
    const { stripe } = setup()
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://example.com/ok',
      line_items: [{ price_data: { currency: 'usd', product_data: { name: 'T-shirt' }, unit_amount: 2000 }, quantity: 3 }],
    })
    expect(session.amount_total).toBe(6000)
    expect('line_items' in session).toBe(false)
    const got = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] })
    const line = got.line_items?.data[0]
    expect([line?.description, line?.quantity, line?.amount_total]).toEqual(['T-shirt', 3, 6000])
    const product = await stripe.products.retrieve(line?.price?.product as string)
    expect(product.name).toBe('T-shirt')
    const listed = await stripe.checkout.sessions.listLineItems(session.id)
    expect(listed.data.map((l) => l.id)).toEqual([line?.id])
    expect(await eventTypes(stripe)).toEqual(['product.created', 'price.created'])
  })
})
