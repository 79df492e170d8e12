import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { billingClient, DAY, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

type Client = ReturnType<typeof billingClient>

/** A 3000/month seat and a metered API price (2 per call) on one subscription, 10 days in, 50 calls used. */
async function usedSubscription({ sim, stripe }: Client) {
  const { customer } = await payingCustomer(stripe)
  const { price: seat, product } = await monthlyPrice(stripe, 3000)
  const meter = await stripe.billing.meters.create({
    display_name: 'Calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  const calls = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 2,
    recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
  })
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }, { price: calls.id }] })
  await stripe.v2.billing.meterEvents.create({
    event_name: 'api_call',
    payload: { stripe_customer_id: customer.id, value: '50' },
  })
  await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
  await sim.clock.tickAsync(10 * DAY - METER_PROCESSING_DELAY.max)
  const periodEnd = Number(sub.items.data[0]?.current_period_end)
  const periodStart = Number(sub.items.data[0]?.current_period_start)
  // The share of the period left at the pause, as the provider prorates: whole seconds.
  const left = (periodEnd - Math.floor(sim.clock.now / 1000)) / (periodEnd - periodStart)
  return { customer, sub, seat, calls, left }
}

const pendingOf = async ({ stripe }: Client, customer: string) =>
  (await stripe.invoiceItems.list({ customer, pending: true })).data

describe('the billing of a pause (subscriptions.pause bill_for and invoicing_behavior)', () => {
  it('by default leaves the usage so far and a credit for the unused time as pending invoice items', async () => {
    const client = billingClient({ seed: 611 })
    const { customer, sub, left } = await usedSubscription(client)
    const paused = await client.stripe.subscriptions.pause(sub.id)
    expect(paused.status).toBe('paused')
    const pending = await pendingOf(client, customer.id)
    const credit = pending.find((ii) => ii.amount < 0)
    const usage = pending.find((ii) => ii.amount > 0)
    expect(credit).toMatchObject({ amount: -Math.round(3000 * left), proration: true })
    expect(credit?.description).toMatch(/^Unused time on 1 × Seat after /)
    expect(usage).toMatchObject({ amount: 100, quantity: 50, proration: false })
    expect((await client.stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1)
  })

  it('invoices the pause at once with invoicing_behavior invoice, and the resumption does not bill that usage again', async () => {
    const client = billingClient({ seed: 612 })
    const { customer, sub } = await usedSubscription(client)
    await client.stripe.subscriptions.pause(sub.id, {
      invoicing_behavior: 'invoice',
      bill_for: { unused_time_from: { type: 'none' } },
    })
    const [pauseInvoice] = (await client.stripe.invoices.list({ customer: customer.id })).data
    expect(pauseInvoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: 100 })
    expect(await pendingOf(client, customer.id)).toEqual([])
    await client.sim.clock.tickAsync(5 * DAY)
    await client.stripe.subscriptions.resume(sub.id)
    await client.sim.clock.tickAsync(2 * HOUR)
    const [resumption] = (await client.stripe.invoices.list({ customer: customer.id })).data
    // The new period's seat only: the 50 calls were billed by the pause.
    expect(resumption).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 3000 })
  })

  it('credits the whole period with unused_time_from item_current_period_start, and bills nothing with none', async () => {
    const client = billingClient({ seed: 613 })
    const { customer, sub } = await usedSubscription(client)
    await client.stripe.subscriptions.pause(sub.id, {
      bill_for: { outstanding_usage_through: { type: 'none' }, unused_time_from: { type: 'item_current_period_start' } },
    })
    expect((await pendingOf(client, customer.id)).map((ii) => ii.amount)).toEqual([-3000])

    const other = billingClient({ seed: 614 })
    const used = await usedSubscription(other)
    await other.stripe.subscriptions.pause(used.sub.id, {
      bill_for: { outstanding_usage_through: { type: 'none' }, unused_time_from: { type: 'none' } },
    })
    expect(await pendingOf(other, used.customer.id)).toEqual([])
  })
})
