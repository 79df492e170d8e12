import { describe, expect, it } from 'vitest'
import { setup } from './helpers.js'
import { shapeProblems } from './shape-check.js'

describe('includable fields are answered when expand[] names them (official client)', () => {
  it("reads a tiered price's tiers back with expand: ['tiers']", async () => {
    const { stripe } = setup()
    const product = await stripe.products.create({ name: 'Tiered' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      recurring: { interval: 'month' },
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: [
        { up_to: 10, unit_amount: 100 },
        { up_to: 'inf', unit_amount: 50 },
      ],
    })
    const got = await stripe.prices.retrieve(price.id, { expand: ['tiers'] })
    expect(got.tiers?.map((t) => [t.up_to, t.unit_amount])).toEqual([
      [10, 100],
      [null, 50],
    ])
  })

  it("leaves a tiered price's stored tiers out of every answer that does not expand them", async () => {
    const { stripe } = setup()
    const product = await stripe.products.create({ name: 'Tiered' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      recurring: { interval: 'month' },
      billing_scheme: 'tiered',
      tiers_mode: 'volume',
      tiers: [
        { up_to: 5, unit_amount: 100 },
        { up_to: 'inf', unit_amount: 80 },
      ],
    })
    const updated = await stripe.prices.update(price.id, { metadata: { tier: 'volume' } })
    const retrieved = await stripe.prices.retrieve(price.id)
    const listed = await stripe.prices.list()
    for (const answer of [price, updated, retrieved, ...listed.data]) expect('tiers' in answer).toBe(false)
    const created = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: [{ up_to: 'inf', unit_amount: 10 }],
      recurring: { interval: 'month' },
      expand: ['tiers'],
    })
    expect(created.tiers?.map((t) => t.unit_amount)).toEqual([10])
    const expandedList = await stripe.prices.list({ expand: ['data.tiers'] })
    expect(expandedList.data.map((p) => p.tiers?.length)).toEqual([1, 2])
  })

  it("leaves the tiers out of the price a subscription's items carry unless expanded there", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'tiers@example.com' })
    const product = await stripe.products.create({ name: 'Seats' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      recurring: { interval: 'month' },
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: [
        { up_to: 10, unit_amount: 100 },
        { up_to: 'inf', unit_amount: 50 },
      ],
    })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id, quantity: 3 }],
      payment_behavior: 'default_incomplete',
    })
    expect(sub.items.data[0]?.price.id).toBe(price.id)
    expect('tiers' in (sub.items.data[0]?.price ?? {})).toBe(false)
    const expanded = await stripe.subscriptions.retrieve(sub.id, { expand: ['items.data.price.tiers'] })
    expect(expanded.items.data[0]?.price.tiers?.map((t) => t.up_to)).toEqual([10, null])
  })

  it("fills a customer's subscriptions, tax_ids, sources and invoice_credit_balance from the state", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'inc@example.com' })
    const plain = await stripe.customers.retrieve(customer.id)
    expect(shapeProblems('Customer', plain)).toEqual([])
    expect('subscriptions' in plain).toBe(false)
    const product = await stripe.products.create({ name: 'P' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 0,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const taxId = await stripe.customers.createTaxId(customer.id, { type: 'eu_vat', value: 'DE123456789' })
    await stripe.customers.createBalanceTransaction(customer.id, { amount: -500, currency: 'usd' })
    const got = (await stripe.customers.retrieve(customer.id, {
      expand: ['subscriptions', 'tax_ids', 'sources', 'invoice_credit_balance'],
    })) as any
    expect(got.subscriptions.data.map((s: { id: string }) => s.id)).toEqual([sub.id])
    expect(got.subscriptions.url).toBe(`/v1/customers/${customer.id}/subscriptions`)
    expect(got.tax_ids.data.map((t: { id: string }) => t.id)).toEqual([taxId.id])
    expect(got.sources).toMatchObject({ object: 'list', data: [], has_more: false })
    expect(got.invoice_credit_balance).toEqual({ usd: 500 })
  })

  it('expands includable fields inside a list (data.subscriptions)', async () => {
    const { stripe } = setup()
    await stripe.customers.create({ email: 'a@example.com' })
    const listed = await stripe.customers.list({ expand: ['data.subscriptions'] })
    expect(listed.data[0]?.subscriptions).toMatchObject({ object: 'list', data: [] })
  })

  it('still refuses a plain field in expand[] with 400', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'x@example.com' })
    await expect(stripe.customers.retrieve(customer.id, { expand: ['email'] })).rejects.toMatchObject({
      statusCode: 400,
      param: 'expand',
    })
  })
})

describe('a subscription item shows its price as plan', () => {
  it('mirrors id, amount, currency, interval, interval_count, usage_type and product', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'plan@example.com' })
    const product = await stripe.products.create({ name: 'Weekly' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'eur',
      unit_amount: 700,
      recurring: { interval: 'week', interval_count: 2 },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const plan = sub.items.data[0]?.plan
    expect(plan).toMatchObject({
      id: price.id,
      object: 'plan',
      amount: 700,
      currency: 'eur',
      interval: 'week',
      interval_count: 2,
      usage_type: 'licensed',
      product: product.id,
      billing_scheme: 'per_unit',
    })
    // The client reads decimals into its Decimal class; their JSON is the wire's string.
    expect(shapeProblems('Plan', JSON.parse(JSON.stringify(plan)))).toEqual([])
  })

  it('follows a price change on the item', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'plan2@example.com' })
    const product = await stripe.products.create({ name: 'M' })
    const a = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 100,
      recurring: { interval: 'month' },
    })
    const b = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 200,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: a.id }] })
    const item = await stripe.subscriptionItems.update(sub.items.data[0]?.id as string, {
      price: b.id,
      proration_behavior: 'none',
    })
    expect([item.plan.id, item.plan.amount]).toEqual([b.id, 200])
  })
})

describe('a retrieve answered again and again (the shown fields made once per stored object)', () => {
  it('answers the same bytes each time, shows a withheld field only when expanded, and shows a change at once', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'jenny@example.com', tax: { ip_address: '8.8.8.8' } })
    const plain = async () => JSON.stringify(await stripe.customers.retrieve(customer.id))
    const first = await plain()
    expect(await plain()).toBe(first)
    expect(JSON.parse(first)).not.toHaveProperty('tax')
    const expanded = await stripe.customers.retrieve(customer.id, { expand: ['tax'] })
    expect(expanded).toHaveProperty('tax')
    expect(await plain()).toBe(first)
    await stripe.customers.update(customer.id, { name: 'Jenny Rosen' })
    const changed = JSON.parse(await plain())
    expect(changed.name).toBe('Jenny Rosen')
    expect(changed).not.toHaveProperty('tax')
  })
})
