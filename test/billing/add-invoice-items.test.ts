import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

async function fixture(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Plan' })
  const monthly = await stripe.prices.create({
    unit_amount: 1000,
    currency: 'usd',
    recurring: { interval: 'month' },
    product: product.id,
  })
  const setupFee = await stripe.prices.create({ unit_amount: 2500, currency: 'usd', product: product.id })
  const customer = await stripe.customers.create({
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  return { product, monthly, setupFee, customer }
}

async function linesOf(stripe: Stripe, invoice: string | Stripe.Invoice | null): Promise<Stripe.InvoiceLineItem[]> {
  const id = typeof invoice === 'string' ? invoice : (invoice?.id as string)
  return (await stripe.invoices.listLineItems(id)).data
}

type Refusal = { statusCode?: number; param?: string; message?: string }

describe('add_invoice_items on subscriptions', () => {
  it('bills the items on the first invoice of a new subscription', async () => {
    const { stripe } = setup()
    const { monthly, setupFee, customer, product } = await fixture(stripe)
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      add_invoice_items: [
        { price: setupFee.id },
        { price_data: { currency: 'usd', product: product.id, unit_amount: 300 }, quantity: 2 },
      ],
    })
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(invoice.amount_paid).toBe(1000 + 2500 + 600)
    const amounts = (await linesOf(stripe, invoice)).map((l) => l.amount).sort((a, b) => a - b)
    expect(amounts).toEqual([600, 1000, 2500])
    // Billed once: nothing is left pending for the next invoice.
    expect((await stripe.invoiceItems.list({ customer: customer.id, pending: true })).data).toEqual([])
  })

  it('refuses a recurring price with 400 on its param, and creates nothing', async () => {
    const { stripe } = setup()
    const { monthly, customer } = await fixture(stripe)
    const error = await stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: monthly.id }], add_invoice_items: [{ price: monthly.id }] })
      .then(
        () => undefined,
        (e: Refusal) => e,
      )
    expect(error).toMatchObject({ statusCode: 400, param: 'add_invoice_items[0][price]' })
    expect(error?.message).toContain('only accepts prices with `type=one_time`')
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([])
    expect((await stripe.invoiceItems.list({ customer: customer.id })).data).toEqual([])
  })

  it('refuses an entry with neither price nor price_data', async () => {
    const { stripe } = setup()
    const { monthly, customer } = await fixture(stripe)
    const error = await stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: monthly.id }], add_invoice_items: [{ quantity: 1 }] })
      .then(
        () => undefined,
        (e: Refusal) => e,
      )
    expect(error).toMatchObject({ statusCode: 400, param: 'add_invoice_items[0][price]' })
  })

  it("on update bills the items on the update's proration invoice", async () => {
    const { stripe } = setup()
    const { monthly, setupFee, customer, product } = await fixture(stripe)
    const yearlyish = await stripe.prices.create({
      unit_amount: 3000,
      currency: 'usd',
      recurring: { interval: 'month' },
      product: product.id,
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id }] })
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]?.id as string, price: yearlyish.id }],
      proration_behavior: 'always_invoice',
      add_invoice_items: [{ price: setupFee.id }],
    })
    expect(updated.latest_invoice).not.toBe(sub.latest_invoice)
    const lines = await linesOf(stripe, updated.latest_invoice)
    expect(lines.some((l) => l.amount === 2500)).toBe(true)
  })

  it('on update without an invoice leaves the items pending for the next invoice, which bills them', async () => {
    const { stripe, sim } = setup()
    const { monthly, setupFee, customer } = await fixture(stripe)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id }] })
    await stripe.subscriptions.update(sub.id, { add_invoice_items: [{ price: setupFee.id }] })
    const pending = await stripe.invoiceItems.list({ customer: customer.id, pending: true })
    expect(pending.data.map((i) => i.amount)).toEqual([2500])
    await sim.clock.tickAsync(32 * 24 * 3600 * 1000)
    const next = await stripe.subscriptions.retrieve(sub.id)
    expect(next.latest_invoice).not.toBe(sub.latest_invoice)
    expect((await linesOf(stripe, next.latest_invoice)).some((l) => l.amount === 2500)).toBe(true)
  })
})

describe('add_invoice_items on subscription schedule phases', () => {
  it("shows them on the phase and bills them on the first invoice of the schedule's subscription", async () => {
    const { stripe } = setup()
    const { monthly, setupFee, customer } = await fixture(stripe)
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 'now',
      phases: [{ items: [{ price: monthly.id }], add_invoice_items: [{ price: setupFee.id }] }],
    })
    const phase = schedule.phases[0] as Stripe.SubscriptionSchedule.Phase
    expect(phase.add_invoice_items.map((a) => [a.price, a.quantity])).toEqual([[setupFee.id, 1]])
    const sub = await stripe.subscriptions.retrieve(schedule.subscription as string)
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(invoice.amount_paid).toBe(3500)
  })

  it("bills a later phase's items on the invoice that starts it", async () => {
    const { stripe, sim } = setup()
    const { monthly, setupFee, customer } = await fixture(stripe)
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 'now',
      phases: [
        { items: [{ price: monthly.id }], duration: { interval: 'month', interval_count: 1 } },
        { items: [{ price: monthly.id, quantity: 2 }], add_invoice_items: [{ price: setupFee.id }] },
      ],
    })
    const first = await stripe.subscriptions.retrieve(schedule.subscription as string)
    expect((await stripe.invoices.retrieve(first.latest_invoice as string)).amount_paid).toBe(1000)
    await sim.clock.tickAsync(32 * 24 * 3600 * 1000)
    const second = await stripe.subscriptions.retrieve(schedule.subscription as string)
    const invoice = await stripe.invoices.retrieve(second.latest_invoice as string)
    expect(invoice.amount_due).toBe(2000 + 2500)
  })

  it('refuses a recurring price in a phase with 400 on its param', async () => {
    const { stripe } = setup()
    const { monthly, customer } = await fixture(stripe)
    const error = await stripe.subscriptionSchedules
      .create({
        customer: customer.id,
        start_date: 'now',
        phases: [{ items: [{ price: monthly.id }], add_invoice_items: [{ price: monthly.id }] }],
      })
      .then(
        () => undefined,
        (e: Refusal) => e,
      )
    expect(error).toMatchObject({ statusCode: 400, param: 'phases[0][add_invoice_items][0][price]' })
  })
})
