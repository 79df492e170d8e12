import { describe, expect, it } from 'vitest'
import { openPaymentLink } from '../../src/domain/checkout/payment-links-resource.js'
import { NO_ORIGIN } from '../../src/domain/events/emit-snapshot.js'
import { setup } from './helpers.js'

const monthly = (product: string, unit_amount: number) => ({
  currency: 'usd',
  product,
  unit_amount,
  recurring: { interval: 'month' as const },
})

describe('quotes take line_items[][price_data] (official client)', () => {
  it('makes an inactive price per inline line, and the lines and amounts use it', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'q@example.com' })
    const product = await stripe.products.create({ name: 'Seats' })
    const quote = await stripe.quotes.create({
      customer: customer.id,
      line_items: [
        { price_data: { currency: 'usd', product: product.id, unit_amount: 300 }, quantity: 2 },
        { price_data: monthly(product.id, 500) },
      ],
    })
    expect(quote.amount_total).toBe(1100)
    const lines = (await stripe.quotes.listLineItems(quote.id)).data
    const prices = await Promise.all(lines.map((l) => stripe.prices.retrieve(l.price?.id as string)))
    expect(prices.map((p) => [p.product, p.unit_amount, p.type, p.active])).toEqual([
      [product.id, 300, 'one_time', false],
      [product.id, 500, 'recurring', false],
    ])
  })

  it('quotes.update replaces the lines with new inline prices', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'q2@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price_data: monthly(product.id, 100) }] })
    const updated = await stripe.quotes.update(quote.id, { line_items: [{ price_data: monthly(product.id, 700), quantity: 3 }] })
    expect(updated.amount_total).toBe(2100)
    const [line] = (await stripe.quotes.listLineItems(quote.id)).data
    expect((await stripe.prices.retrieve(line?.price?.id as string)).unit_amount).toBe(700)
  })

  it('refuses bad price_data with 400 and makes no price and no quote', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'q3@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    await expect(
      stripe.quotes.create({
        customer: customer.id,
        line_items: [{ price_data: monthly(product.id, 100) }, { price_data: { currency: 'usd', product: product.id } as never }],
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'line_items[1][price_data][unit_amount]' })
    await expect(
      stripe.quotes.create({ customer: customer.id, line_items: [{ price_data: monthly('prod_missing', 100) }] }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' })
    expect((await stripe.prices.list()).data).toEqual([])
    expect((await stripe.quotes.list()).data).toEqual([])
  })

  it('an accepted quote subscribes the customer to its inline recurring price', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'q4@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price_data: monthly(product.id, 900) }] })
    await stripe.quotes.finalizeQuote(quote.id)
    const accepted = await stripe.quotes.accept(quote.id)
    const [line] = (await stripe.quotes.listLineItems(quote.id)).data
    const sub = await stripe.subscriptions.retrieve(accepted.subscription as string)
    expect(sub.items.data.map((i) => i.price.id)).toEqual([line?.price?.id])
  })
})

describe('an object holding inline prices may use them although they are inactive', () => {
  it('a subscription-mode checkout session with an inline recurring price completes into a subscription', async () => {
    const { sim, stripe } = setup()
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      success_url: 'https://example.com/ok',
      customer_email: 'cs@example.com',
      line_items: [
        {
          price_data: { currency: 'usd', product_data: { name: 'Pro' }, unit_amount: 1500, recurring: { interval: 'month' } },
          quantity: 1,
        },
      ],
    })
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_visa' })
    expect(done.status).toBe('complete')
    const [line] = (await stripe.checkout.sessions.listLineItems(session.id)).data
    const sub = await stripe.subscriptions.retrieve(done.subscription as string)
    expect([sub.status, sub.items.data[0]?.price.id]).toEqual(['active', line?.price?.id])
  })

  it('a payment link with an inline price opens a checkout session', async () => {
    const { sim, stripe } = setup()
    const link = await stripe.paymentLinks.create({
      line_items: [{ price_data: { currency: 'usd', product_data: { name: 'Mug' }, unit_amount: 1200 }, quantity: 2 }],
    } as never)
    const scope = { account: sim.platform.id, mode: 'test' as const }
    const opened = openPaymentLink(sim.service.engine, scope, link.url, NO_ORIGIN)
    const session = await stripe.checkout.sessions.retrieve(String(opened.id))
    expect(session).toMatchObject({ mode: 'payment', payment_link: link.id, amount_total: 2400 })
  })

  it('a named inactive price is still refused by subscriptions.create', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'i@example.com' })
    const product = await stripe.products.create({ name: 'Old' })
    const price = await stripe.prices.create({ ...monthly(product.id, 100), active: false })
    await expect(stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })).rejects.toMatchObject({
      statusCode: 400,
      param: 'items[0][price]',
    })
  })
})

describe('subscription schedules take phases[][items][][price_data] (official client)', () => {
  it('starting now: the subscription and the phase use the new inline price', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'ss@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 'now',
      phases: [
        { items: [{ price_data: monthly(product.id, 800), quantity: 2 }], duration: { interval: 'month', interval_count: 1 } },
      ],
    })
    const phasePrice = schedule.phases[0]?.items[0]?.price as string
    const price = await stripe.prices.retrieve(phasePrice)
    expect([price.unit_amount, price.product, price.active]).toEqual([800, product.id, false])
    const sub = await stripe.subscriptions.retrieve(schedule.subscription as string)
    expect(sub.items.data.map((i) => [i.price.id, i.quantity])).toEqual([[phasePrice, 2]])
  })

  it('starting later: the phase holds the inline price, and the subscription starts on it', async () => {
    const { sim, stripe } = setup()
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: 1767225600 })
    const customer = await stripe.customers.create({ email: 'ss2@example.com', test_clock: clock.id })
    const product = await stripe.products.create({ name: 'Plan' })
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 1767225600 + 86400,
      phases: [{ items: [{ price_data: monthly(product.id, 400) }] }],
    })
    const phasePrice = schedule.phases[0]?.items[0]?.price as string
    expect((await stripe.prices.retrieve(phasePrice)).unit_amount).toBe(400)
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: 1767225600 + 2 * 86400 })
    await sim.settle()
    const started = await stripe.subscriptionSchedules.retrieve(schedule.id)
    const sub = await stripe.subscriptions.retrieve(started.subscription as string)
    expect(sub.items.data.map((i) => i.price.id)).toEqual([phasePrice])
  })

  it("subscriptionSchedules.update moves an active schedule's subscription onto a new inline price", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'ss4@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    const base = await stripe.prices.create(monthly(product.id, 0))
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 'now',
      phases: [{ items: [{ price: base.id }] }],
    })
    const updated = await stripe.subscriptionSchedules.update(schedule.id, {
      phases: [{ items: [{ price_data: monthly(product.id, 0) }], start_date: schedule.phases[0]?.start_date }],
    })
    const phasePrice = updated.phases[0]?.items[0]?.price as string
    expect(phasePrice).not.toBe(base.id)
    const sub = await stripe.subscriptions.retrieve(updated.subscription as string)
    expect(sub.items.data.map((i) => i.price.id)).toEqual([phasePrice])
  })

  it("refuses an active schedule's phase of mixed billing intervals with 400 and makes no inline price", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'ss5@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    const base = await stripe.prices.create(monthly(product.id, 500))
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 'now',
      phases: [{ items: [{ price: base.id }] }],
    })
    const pricesBefore = (await stripe.prices.list({ limit: 100 })).data.length
    await expect(
      stripe.subscriptionSchedules.update(schedule.id, {
        phases: [
          {
            items: [
              { price_data: monthly(product.id, 700) },
              { price_data: { currency: 'usd', product: product.id, unit_amount: 900, recurring: { interval: 'year' } } },
            ],
            start_date: schedule.phases[0]?.start_date,
          },
        ],
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'phases[0][items][1][price]' })
    expect((await stripe.prices.list({ limit: 100 })).data.length).toBe(pricesBefore)
    const sub = await stripe.subscriptions.retrieve(schedule.subscription as string)
    expect(sub.items.data.map((i) => i.price.id)).toEqual([base.id])
  })

  it('refuses price_data without recurring with 400 and makes no price', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'ss3@example.com' })
    const product = await stripe.products.create({ name: 'Plan' })
    await expect(
      stripe.subscriptionSchedules.create({
        customer: customer.id,
        start_date: 'now',
        phases: [{ items: [{ price_data: { currency: 'usd', product: product.id, unit_amount: 100 } as never }] }],
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'phases[0][items][0][price_data][recurring]' })
    expect((await stripe.prices.list()).data).toEqual([])
    expect((await stripe.subscriptionSchedules.list()).data).toEqual([])
  })
})

describe('invoice lines take price_data when they change (official client)', () => {
  async function draftWithLine(stripe: ReturnType<typeof setup>['stripe']) {
    const customer = await stripe.customers.create({ email: 'il@example.com' })
    const product = await stripe.products.create({ name: 'Setup' })
    const invoice = await stripe.invoices.create({ customer: customer.id })
    const added = await stripe.invoices.addLines(invoice.id, {
      lines: [{ price_data: { currency: 'usd', product: product.id, unit_amount: 700 } }],
    })
    return { product, invoice: added, line: added.lines.data[0] as { id: string } }
  }

  it('invoices.updateLines bills a new inline price', async () => {
    const { stripe } = setup()
    const { product, invoice, line } = await draftWithLine(stripe)
    const updated = await stripe.invoices.updateLines(invoice.id, {
      lines: [{ id: line.id, price_data: { currency: 'usd', product: product.id, unit_amount: 1100 }, quantity: 2 }],
    })
    expect(updated.amount_due).toBe(2200)
    const priceId = updated.lines.data[0]?.pricing?.price_details?.price as string
    expect((await stripe.prices.retrieve(priceId)).unit_amount).toBe(1100)
  })

  it('invoices.updateLineItem bills a new inline price and answers the line', async () => {
    const { stripe } = setup()
    const { product, invoice, line } = await draftWithLine(stripe)
    const changed = await stripe.invoices.updateLineItem(invoice.id, line.id, {
      price_data: { currency: 'usd', product: product.id, unit_amount: 900 },
    })
    expect([changed.id, changed.amount]).toEqual([line.id, 900])
    expect((await stripe.invoices.retrieve(invoice.id)).amount_due).toBe(900)
  })

  it('refuses bad price_data on a line with 400 and changes nothing', async () => {
    const { stripe } = setup()
    const { invoice, line } = await draftWithLine(stripe)
    const before = (await stripe.prices.list()).data.length
    await expect(
      stripe.invoices.updateLines(invoice.id, {
        lines: [{ id: line.id, price_data: { currency: 'usd', product: 'prod_missing', unit_amount: 1 } }],
      }),
    ).rejects.toMatchObject({ statusCode: 400 })
    await expect(
      stripe.invoices.updateLines(invoice.id, { lines: [{ id: line.id, price_data: { currency: 'usd' } as never }] }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing' })
    expect((await stripe.prices.list()).data.length).toBe(before)
    expect((await stripe.invoices.retrieve(invoice.id)).amount_due).toBe(700)
  })
})

describe('invoiceItems.update takes price_data (official client)', () => {
  it('a pending item bills the new inline price at its quantity', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'iu@example.com' })
    const product = await stripe.products.create({ name: 'Hours' })
    const item = await stripe.invoiceItems.create({
      customer: customer.id,
      price_data: { currency: 'usd', product: product.id, unit_amount: 100 },
      quantity: 3,
    })
    const updated = await stripe.invoiceItems.update(item.id, {
      price_data: { currency: 'usd', product: product.id, unit_amount: 250 },
    })
    const priceId = updated.pricing?.price_details?.price as string
    expect(priceId).not.toBe(item.pricing?.price_details?.price)
    expect([updated.amount, (await stripe.prices.retrieve(priceId)).unit_amount]).toEqual([750, 250])
  })

  it("an item on a draft changes with its line and the draft's total", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'iu2@example.com' })
    const product = await stripe.products.create({ name: 'Hours' })
    const invoice = await stripe.invoices.create({ customer: customer.id })
    const item = await stripe.invoiceItems.create({ customer: customer.id, invoice: invoice.id, amount: 500, currency: 'usd' })
    const updated = await stripe.invoiceItems.update(item.id, {
      price_data: { currency: 'usd', product: product.id, unit_amount: 1300 },
      description: 'Consulting',
    })
    expect([updated.amount, updated.description]).toEqual([1300, 'Consulting'])
    expect((await stripe.invoices.retrieve(invoice.id)).amount_due).toBe(1300)
  })

  it('refuses price_data in another currency with 400 and makes no price', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'iu3@example.com' })
    const product = await stripe.products.create({ name: 'Hours' })
    const item = await stripe.invoiceItems.create({ customer: customer.id, amount: 500, currency: 'usd' })
    await expect(
      stripe.invoiceItems.update(item.id, { price_data: { currency: 'eur', product: product.id, unit_amount: 1 } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'price_data[currency]' })
    expect((await stripe.prices.list()).data).toEqual([])
    expect((await stripe.invoiceItems.retrieve(item.id)).amount).toBe(500)
  })
})
