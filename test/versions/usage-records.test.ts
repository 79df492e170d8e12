import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { missingFields, pinned } from './helpers.js'
import { retiredClient } from './retired-client.js'

const HOUR = 3600 * 1000

function pinnedClient(sim: Simulator, version: string): Stripe {
  return new Stripe(sim.platform.secretKey.test, {
    apiVersion: version as Stripe.LatestApiVersion,
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
}

async function meteredApp(version: string, aggregate?: string) {
  const { sim, stripe } = pinned(version)
  const customer = await stripe.customers.create({
    email: 'ops@example.test',
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  const product = await stripe.products.create({ name: 'API calls' })
  const recurring = {
    interval: 'month',
    usage_type: 'metered',
    ...(aggregate === undefined ? {} : { aggregate_usage: aggregate }),
  }
  const price = await stripe.prices.create({
    product: product.id,
    unit_amount: 3,
    currency: 'usd',
    recurring,
  } as never)
  const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  const item = subscription.items.data[0]!.id
  return { sim, stripe, customer, price, subscription, item, legacy: retiredClient(stripe) }
}

describe('legacy usage records before basil', () => {
  it('bills usage records posted at 2020-08-27 on the next invoice, as meter events are billed', async () => {
    const { sim, stripe, price, subscription, item, legacy } = await meteredApp('2020-08-27')
    expect((price.recurring as unknown as { aggregate_usage: string }).aggregate_usage).toBe('sum')
    const now = Math.floor(sim.clock.now / 1000)
    const first = await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 100, timestamp: now })
    expect(first).toMatchObject({ object: 'usage_record', quantity: 100, subscription_item: item, timestamp: now })
    expect(missingFields(first, '2020-08-27')).toEqual([])
    await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 20, timestamp: now + 60, action: 'increment' })
    const summaries = await legacy.subscriptionItems!.listUsageRecordSummaries!(item)
    expect(summaries.data[0]).toMatchObject({ object: 'usage_record_summary', total_usage: 120, invoice: null })
    const upcoming = await legacy.invoices!.retrieveUpcoming!({ customer: subscription.customer })
    expect(upcoming.amount_due).toBe(360)
    const periodEnd = (subscription as unknown as { current_period_end: number }).current_period_end
    await sim.clock.tickAsync(periodEnd * 1000 - sim.clock.now + 2 * HOUR)
    const invoices = await stripe.invoices.list({ subscription: subscription.id })
    const cycle = invoices.data.find((i) => i.billing_reason === 'subscription_cycle')!
    expect(cycle.amount_due).toBe(360)
    expect((cycle.lines.data[0] as unknown as { quantity: number; price: { id: string } }).quantity).toBe(120)
    expect(missingFields(cycle, '2020-08-27')).toEqual([])
  })

  it('aggregates by the price aggregate_usage: set replaces, max keeps the highest', async () => {
    const { sim, item, legacy, subscription } = await meteredApp('2022-08-01', 'max')
    const now = Math.floor(sim.clock.now / 1000)
    await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 7, timestamp: now })
    await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 9, timestamp: now + 10 })
    await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 2, timestamp: now + 10, action: 'set' })
    const summaries = await legacy.subscriptionItems!.listUsageRecordSummaries!(item)
    expect(summaries.data[0].total_usage).toBe(7)
    const upcoming = await legacy.invoices!.retrieveUpcoming!({ subscription: subscription.id })
    expect(upcoming.amount_due).toBe(21)
  })

  it('refuses usage on a licensed item and an unknown aggregate_usage, changing nothing', async () => {
    const { stripe, customer } = await meteredApp('2022-08-01')
    const product = await stripe.products.create({ name: 'Seat' })
    const seat = await stripe.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: seat.id }] })
    const legacy = retiredClient(stripe)
    await expect(legacy.subscriptionItems!.createUsageRecord!(sub.items.data[0]!.id, { quantity: 1 })).rejects.toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
    })
    await expect(
      stripe.prices.create({
        product: product.id,
        unit_amount: 1,
        currency: 'usd',
        recurring: { interval: 'month', usage_type: 'metered', aggregate_usage: 'median' },
      } as never),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'recurring[aggregate_usage]' })
  })

  it('answers 404 at basil, where metered prices need a meter', async () => {
    const { stripe } = pinned('2025-03-31.basil')
    const legacy = retiredClient(stripe)
    await expect(legacy.subscriptionItems!.createUsageRecord!('si_123', { quantity: 1 })).rejects.toMatchObject({
      statusCode: 404,
      message: 'Unrecognized request URL (POST: /v1/subscription_items/si_123/usage_records).',
    })
    const product = await stripe.products.create({ name: 'API' })
    await expect(
      stripe.prices.create({
        product: product.id,
        unit_amount: 1,
        currency: 'usd',
        recurring: { interval: 'month', usage_type: 'metered' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'recurring[meter]' })
  })
  it('carries usage records into a fork, independent of the original', async () => {
    const { sim, item, legacy } = await meteredApp('2020-08-27')
    await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 4 })
    const fork = sim.fork()
    await legacy.subscriptionItems!.createUsageRecord!(item, { quantity: 6 })
    const forked = retiredClient(pinnedClient(fork, '2020-08-27'))
    const inFork = await forked.subscriptionItems!.listUsageRecordSummaries!(item)
    expect(inFork.data[0].total_usage).toBe(4)
    const inOriginal = await legacy.subscriptionItems!.listUsageRecordSummaries!(item)
    expect(inOriginal.data[0].total_usage).toBe(10)
  })
})
