import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { billingClient, payingCustomer } from './helpers.js'

const JAN17 = Date.UTC(2026, 0, 17) / 1000
const FEB1 = Date.UTC(2026, 1, 1) / 1000
/** Jan 17 to Feb 1 is 15 of January's 31 days. */
const LEFT = 15 / 31

/** 1 × a $30 monthly seat and a metered API price (2 cents a call) from Jan 1, cancelled on Jan 17. */
async function setUp() {
  const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
  const { stripe, sim } = b
  const { customer } = await payingCustomer(stripe)
  const product = await stripe.products.create({ name: 'Seat' })
  const meter = await stripe.billing.meters.create({
    display_name: 'Calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  const seat = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 3000,
    recurring: { interval: 'month' },
  })
  const calls = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 2,
    recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
  })
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }, { price: calls.id }] })
  await stripe.billing.meterEvents.create({ event_name: 'api_call', payload: { stripe_customer_id: customer.id, value: '250' } })
  await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
  await sim.clock.tickAsync(JAN17 * 1000 - sim.clock.now)
  return { ...b, customer, seat, calls, sub }
}

const pending = async (stripe: Stripe, customer: string) => (await stripe.invoiceItems.list({ customer, pending: true })).data

describe('subscriptions.cancel with invoice_now and prorate (official client)', () => {
  it('without options it ends the subscription and bills nothing more', async () => {
    const { stripe, customer, sub } = await setUp()
    const canceled = await stripe.subscriptions.cancel(sub.id)
    expect(canceled.status).toBe('canceled')
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1)
    expect(await pending(stripe, customer.id)).toHaveLength(0)
  })

  it('prorate credits the unused time of licensed items as a pending proration', async () => {
    const { stripe, customer, sub } = await setUp()
    await stripe.subscriptions.cancel(sub.id, { prorate: true })
    const [credit] = await pending(stripe, customer.id)
    expect(credit).toMatchObject({ amount: -Math.round(3000 * LEFT), proration: true, period: { start: JAN17, end: FEB1 } })
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1)
  })

  it('invoice_now bills the metered usage of the period so far on a final invoice, paid at once', async () => {
    const { stripe, customer, sub } = await setUp()
    const canceled = await stripe.subscriptions.cancel(sub.id, { invoice_now: true })
    const invoice = await stripe.invoices.retrieve(canceled.latest_invoice as string)
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 500, period_end: JAN17 })
    expect(invoice.lines.data.map((l) => l.quantity)).toEqual([250])
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(2)
  })

  it('invoice_now with prorate puts the credit on the final invoice: the usage is paid from it and the rest is customer balance', async () => {
    const { stripe, customer, sub } = await setUp()
    const canceled = await stripe.subscriptions.cancel(sub.id, { invoice_now: true, prorate: true })
    const invoice = await stripe.invoices.retrieve(canceled.latest_invoice as string)
    const total = 500 - Math.round(3000 * LEFT)
    expect(invoice).toMatchObject({ total, amount_due: 0, status: 'paid', ending_balance: total })
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ balance: total })
    expect(await pending(stripe, customer.id)).toHaveLength(0)
  })

  it("cancelling without invoice_now or prorate removes the subscription's pending prorations", async () => {
    const { sim, stripe, customer, sub } = await setUp()
    const seatItem = sub.items.data.find((i) => i.price.recurring?.usage_type === 'licensed') as Stripe.SubscriptionItem
    await stripe.subscriptions.update(sub.id, { items: [{ id: seatItem.id, quantity: 2 }] })
    expect(await pending(stripe, customer.id)).toHaveLength(2)
    await stripe.subscriptions.cancel(sub.id)
    expect(await pending(stripe, customer.id)).toHaveLength(0)
    expect(sim.admin.events({ type: 'invoiceitem.deleted' })).toHaveLength(2)
  })

  it('invoice_now takes pending prorations onto the final invoice', async () => {
    const { stripe, sub } = await setUp()
    const seatItem = sub.items.data.find((i) => i.price.recurring?.usage_type === 'licensed') as Stripe.SubscriptionItem
    await stripe.subscriptions.update(sub.id, { items: [{ id: seatItem.id, quantity: 2 }] })
    const canceled = await stripe.subscriptions.cancel(sub.id, { invoice_now: true })
    const invoice = await stripe.invoices.retrieve(canceled.latest_invoice as string)
    expect(invoice.amount_paid).toBe(500 - Math.round(3000 * LEFT) + Math.round(6000 * LEFT))
  })
})
