import { describe, expect, it } from 'vitest'
import { billingClient, caught, DAY, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

type Client = ReturnType<typeof billingClient>

async function catalogue({ stripe }: Client) {
  const { customer } = await payingCustomer(stripe)
  const { price: seat, product } = await monthlyPrice(stripe, 1000)
  const setupFee = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 500 })
  return { customer, seat, product, setupFee }
}

describe("a new subscription's preview honours invoice_items and subscription_details", () => {
  it('adds invoice_items to the first invoice, as the same items created before subscribing would be', async () => {
    const client = billingClient({ seed: 701 })
    const { stripe } = client
    const { customer, seat, setupFee } = await catalogue(client)
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: seat.id }] },
      invoice_items: [
        { price: setupFee.id, quantity: 2 },
        { amount: 250, currency: 'usd', description: 'Onboarding call' },
      ],
    })
    expect(preview.amount_due).toBe(1000 + 1000 + 250)
    expect(preview.lines.data.map((l) => [l.description, l.amount])).toEqual([
      ['1 × Seat', 1000],
      ['Seat', 1000],
      ['Onboarding call', 250],
    ])
    expect((await stripe.invoiceItems.list({ customer: customer.id })).data).toEqual([])
    await stripe.invoiceItems.create({ customer: customer.id, pricing: { price: setupFee.id }, quantity: 2 })
    await stripe.invoiceItems.create({ customer: customer.id, amount: 250, currency: 'usd', description: 'Onboarding call' })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }] })
    const first = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(first.amount_due).toBe(preview.amount_due)
  })

  it('bills nothing until the anchor with proration_behavior none, as the subscription then made does', async () => {
    const client = billingClient({ seed: 702 })
    const { stripe } = client
    const { customer, seat } = await catalogue(client)
    const anchor = Math.floor(client.sim.clock.now / 1000) + 10 * 86_400
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: {
        items: [{ price: seat.id }],
        billing_cycle_anchor: { type: 'timestamp', timestamp: anchor } as never,
        proration_behavior: 'none',
      },
    })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id }],
      billing_cycle_anchor: anchor,
      proration_behavior: 'none',
    })
    const first = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect([preview.amount_due, first.amount_due]).toEqual([0, 0])
    expect(sub.status).toBe('active')
    expect(preview.lines.data[0]?.period.end).toBe(anchor)
  })

  it('takes proration_date and cancel_at, refusing a cancel_at in the past with 400', async () => {
    const client = billingClient({ seed: 703 })
    const { stripe } = client
    const { customer, seat } = await catalogue(client)
    const now = Math.floor(client.sim.clock.now / 1000)
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: seat.id }], proration_date: now, cancel_at: now + 20 * 86_400 },
    })
    expect(preview.amount_due).toBe(1000)
    expect(preview.parent?.subscription_details?.subscription_proration_date).toBe(now)
    const past = await caught(
      stripe.invoices.createPreview({
        customer: customer.id,
        subscription_details: { items: [{ price: seat.id }], cancel_at: now - 10 },
      }),
    )
    expect([past.statusCode, past.param]).toEqual([400, 'cancel_at'])
  })
})

describe("an existing subscription's preview with invoice_items and resume_at", () => {
  it('changes a pending item named by invoiceitem and adds new lines, storing nothing', async () => {
    const client = billingClient({ seed: 711 })
    const { stripe } = client
    const { customer, seat } = await catalogue(client)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }] })
    const pending = await stripe.invoiceItems.create({
      customer: customer.id,
      amount: 700,
      currency: 'usd',
      description: 'Extra',
    })
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription: sub.id,
      invoice_items: [
        { invoiceitem: pending.id, amount: 300 },
        { amount: 50, currency: 'usd', description: 'Fee' },
      ],
    })
    expect(preview.lines.data.map((l) => [l.description, l.amount])).toEqual([
      ['1 × Seat', 1000],
      ['Extra', 300],
      ['Fee', 50],
    ])
    expect((await stripe.invoiceItems.retrieve(pending.id)).amount).toBe(700)
    const missing = await caught(
      stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id, invoice_items: [{ invoiceitem: 'ii_nope' }] }),
    )
    expect([missing.statusCode, missing.code]).toEqual([400, 'resource_missing'])
  })

  it('previews the invoice a paused subscription resumed now makes, and refuses resume_at on an active one', async () => {
    const client = billingClient({ seed: 712 })
    const { stripe, sim } = client
    const { customer, seat } = await catalogue(client)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }] })
    const active = await caught(
      stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id, subscription_details: { resume_at: 'now' } }),
    )
    expect([active.statusCode, active.param]).toEqual([400, 'subscription_details[resume_at]'])
    await stripe.subscriptions.pause(sub.id, {
      bill_for: { outstanding_usage_through: { type: 'none' }, unused_time_from: { type: 'none' } },
    })
    await sim.clock.tickAsync(45 * DAY)
    const now = Math.floor(sim.clock.now / 1000)
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription: sub.id,
      subscription_details: { resume_at: 'now' },
    })
    expect(preview.lines.data[0]?.period.start).toBe(now)
    await stripe.subscriptions.resume(sub.id)
    await sim.clock.tickAsync(2 * HOUR)
    const [resumption] = (await stripe.invoices.list({ customer: customer.id })).data
    expect(preview.amount_due).toBe(resumption?.amount_due)
    expect(preview.lines.data.map((l) => l.period)).toEqual(resumption?.lines.data.map((l) => l.period))
  })
})
