import { describe, expect, it } from 'vitest'
import { billingClient, caught, DAY, monthlyPrice, payingCustomer } from './helpers.js'

async function oneTimePrice(stripe: ReturnType<typeof billingClient>['stripe'], unitAmount: number) {
  const product = await stripe.products.create({ name: 'Setup' })
  return stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: unitAmount })
}

describe('quotes', () => {
  it('computes a draft from prices, discounts and tax rates', async () => {
    const { stripe, sim } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const setup = await oneTimePrice(stripe, 5000)
    const coupon = await stripe.coupons.create({ percent_off: 10, duration: 'forever' })
    const rate = await stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: false })
    const quote = await stripe.quotes.create({
      customer: customer.id,
      line_items: [
        { price: price.id, quantity: 2 },
        { price: setup.id, quantity: 1 },
      ],
      discounts: [{ coupon: coupon.id }],
      default_tax_rates: [rate.id],
    })
    expect(quote.id).toMatch(/^qt_/)
    expect([quote.status, quote.number]).toEqual(['draft', null])
    expect(quote.amount_subtotal).toBe(7000)
    // 10% off each line (200 + 500), then 20% tax on what is left (360 + 900).
    expect(quote.total_details.amount_discount).toBe(700)
    expect(quote.total_details.amount_tax).toBe(1260)
    expect(quote.amount_total).toBe(7000 - 700 + 1260)
    expect(quote.computed.recurring?.amount_total).toBe(1800 + 360)
    expect(quote.computed.recurring?.interval).toBe('month')
    const items = await stripe.quotes.listLineItems(quote.id)
    expect(items.data.map((i) => [i.price?.id, i.quantity, i.amount_total])).toEqual([
      [price.id, 2, 2160],
      [setup.id, 1, 5400],
    ])
    const upfront = await stripe.quotes.listComputedUpfrontLineItems(quote.id)
    expect(upfront.data.map((i) => i.amount_total)).toEqual([2160, 5400])
    expect(sim.admin.events({ type: 'quote.created' }).length).toBe(1)
  })

  it('updates a draft and refuses to update an open quote with 400, changing nothing', async () => {
    const { stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id }] })
    const updated = await stripe.quotes.update(quote.id, {
      line_items: [{ price: price.id, quantity: 3 }],
      description: 'Three seats',
    })
    expect([updated.amount_total, updated.description]).toEqual([3000, 'Three seats'])
    const open = await stripe.quotes.finalizeQuote(quote.id)
    expect(open.status).toBe('open')
    expect(open.number).toMatch(/^QT-/)
    expect(open.status_transitions.finalized_at).toBe(open.created)
    const refused = await caught(stripe.quotes.update(quote.id, { description: 'later' }))
    expect(refused.statusCode).toBe(400)
    expect((await stripe.quotes.retrieve(quote.id)).description).toBe('Three seats')
  })

  it('refuses a line with a missing price with 400 and keeps no quote', async () => {
    const { stripe } = billingClient()
    const e = await caught(stripe.quotes.create({ line_items: [{ price: 'price_missing' }] }))
    expect([e.statusCode, e.code, e.param]).toEqual([400, 'resource_missing', 'line_items[0][price]'])
    expect((await stripe.quotes.list()).data).toEqual([])
  })

  it('accepts a recurring quote into a subscription with its one-time lines on the first invoice', async () => {
    const { stripe, sim } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const setup = await oneTimePrice(stripe, 5000)
    const quote = await stripe.quotes.create({
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 2 }, { price: setup.id }],
    })
    const draftAccept = await caught(stripe.quotes.accept(quote.id))
    expect(draftAccept.statusCode).toBe(400)
    await stripe.quotes.finalizeQuote(quote.id)
    const accepted = await stripe.quotes.accept(quote.id)
    expect(accepted.status).toBe('accepted')
    const sub = await stripe.subscriptions.retrieve(accepted.subscription as string)
    expect(sub.items.data.map((i) => [i.price.id, i.quantity])).toEqual([[price.id, 2]])
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(invoice.amount_due).toBe(7000)
    expect(sim.admin.events({ type: 'quote.accepted' }).length).toBe(1)
    const again = await caught(stripe.quotes.accept(quote.id))
    expect(again.statusCode).toBe(400)
  })

  it('accepts a one-time quote into an invoice', async () => {
    const { stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const setup = await oneTimePrice(stripe, 2500)
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: setup.id, quantity: 2 }] })
    await stripe.quotes.finalizeQuote(quote.id)
    const accepted = await stripe.quotes.accept(quote.id)
    expect(accepted.subscription).toBeNull()
    const invoice = await stripe.invoices.retrieve(accepted.invoice as string)
    expect([invoice.customer, invoice.amount_due]).toEqual([customer.id, 5000])
  })

  it('accepts into a subscription schedule when the quote starts later', async () => {
    const { stripe, sim } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const start = Math.floor(sim.clock.now / 1000) + 10 * 24 * 3600
    const quote = await stripe.quotes.create({
      customer: customer.id,
      line_items: [{ price: price.id }],
      subscription_data: { effective_date: start },
    })
    await stripe.quotes.finalizeQuote(quote.id)
    const accepted = await stripe.quotes.accept(quote.id)
    const schedule = await stripe.subscriptionSchedules.retrieve(accepted.subscription_schedule as string)
    expect([schedule.status, schedule.phases[0]?.start_date]).toEqual(['not_started', start])
  })

  it('cancels a quote, and cancels an open one by the clock at its expiry', async () => {
    const { stripe, sim } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const a = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id }] })
    expect((await stripe.quotes.cancel(a.id)).status).toBe('canceled')
    expect((await caught(stripe.quotes.finalizeQuote(a.id))).statusCode).toBe(400)

    const b = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id }] })
    const open = await stripe.quotes.finalizeQuote(b.id, { expires_at: Math.floor(sim.clock.now / 1000) + 2 * 24 * 3600 })
    await sim.clock.tickAsync(DAY)
    expect((await stripe.quotes.retrieve(b.id)).status).toBe('open')
    await sim.clock.tickAsync(DAY)
    const expired = await stripe.quotes.retrieve(b.id)
    expect([expired.status, expired.status_transitions.canceled_at]).toEqual(['canceled', open.expires_at])
    expect(sim.admin.events({ type: 'quote.canceled' }).map((e) => e.objectId)).toEqual([a.id, b.id])
  })

  it('serves a finalized quote as a PDF document on the files host', async () => {
    const { stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id }] })
    expect((await caught(stripe.quotes.pdf(quote.id))).statusCode).toBe(400)
    await stripe.quotes.finalizeQuote(quote.id)
    const stream = (await stripe.quotes.pdf(quote.id)) as unknown as AsyncIterable<Uint8Array>
    const chunks: Uint8Array[] = []
    for await (const chunk of stream) chunks.push(chunk)
    const text = Buffer.concat(chunks).toString('latin1')
    expect(text.startsWith('%PDF-')).toBe(true)
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true)
  })
})
