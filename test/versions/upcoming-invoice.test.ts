import { describe, expect, it } from 'vitest'
import { missingFields, pinned } from './helpers.js'
import { retiredClient } from './retired-client.js'

async function subscribed(version: string) {
  const { sim, stripe } = pinned(version)
  const customer = await stripe.customers.create({
    email: 'jenny@example.test',
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  const product = await stripe.products.create({ name: 'Basic' })
  const price = await stripe.prices.create({
    product: product.id,
    unit_amount: 500,
    currency: 'usd',
    recurring: { interval: 'month' },
  })
  const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  return { sim, stripe, customer, price, subscription, legacy: retiredClient(stripe) }
}

describe('the upcoming invoice before basil', () => {
  it('answers GET /v1/invoices/upcoming at 2022-08-01 for a next-invoice page, in that version shape', async () => {
    const { stripe, customer, subscription, price, legacy } = await subscribed('2022-08-01')
    const upcoming = await legacy.invoices!.retrieveUpcoming!({ customer: customer.id })
    expect(upcoming.object).toBe('invoice')
    expect(upcoming.subscription).toBe(subscription.id)
    expect(upcoming.amount_due).toBe(500)
    expect(upcoming.lines.data[0].price.id).toBe(price.id)
    expect(upcoming.next_payment_attempt).toBeGreaterThan(subscription.created)
    expect(missingFields(upcoming, '2022-08-01')).toEqual([])
    // The same numbers as the preview that replaced it.
    const preview = await stripe.invoices.createPreview({ customer: customer.id })
    expect(preview.amount_due).toBe(upcoming.amount_due)
  })

  it('previews item changes given as the flat subscription params of then', async () => {
    const { stripe, customer, subscription, legacy } = await subscribed('2022-08-01')
    const product = await stripe.products.create({ name: 'Pro' })
    const pro = await stripe.prices.create({
      product: product.id,
      unit_amount: 2000,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const upcoming = await legacy.invoices!.retrieveUpcoming!({
      customer: customer.id,
      subscription: subscription.id,
      subscription_items: [{ id: subscription.items.data[0]!.id, price: pro.id }],
      subscription_proration_behavior: 'none',
    })
    expect(upcoming.amount_due).toBe(2000)
  })

  it('expands as asked, a field of then included', async () => {
    const { customer, subscription, legacy } = await subscribed('2022-08-01')
    const upcoming = await legacy.invoices!.retrieveUpcoming!({ customer: customer.id, expand: ['customer', 'subscription'] })
    expect(upcoming.customer.id).toBe(customer.id)
    expect(upcoming.subscription.id).toBe(subscription.id)
  })

  it('lists the upcoming lines, paged', async () => {
    const { customer, price, legacy } = await subscribed('2020-08-27')
    const lines = await legacy.invoices!.listUpcomingLines!({ customer: customer.id, limit: 5 })
    expect(lines.object).toBe('list')
    expect(lines.data.map((l: { price: { id: string } }) => l.price.id)).toEqual([price.id])
    expect(lines.has_more).toBe(false)
  })

  it('refuses a parameter the version did not document with parameter_unknown', async () => {
    const { customer, legacy } = await subscribed('2022-08-01')
    await expect(legacy.invoices!.retrieveUpcoming!({ customer: customer.id, customer_account: 'x' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'parameter_unknown',
      param: 'customer_account',
    })
  })

  it('answers 404 at basil and later, where the provider removed it', async () => {
    for (const version of ['2025-03-31.basil', '2025-09-30.clover', '2026-09-30.endive']) {
      const { customer, legacy } = await subscribed(version)
      await expect(legacy.invoices!.retrieveUpcoming!({ customer: customer.id })).rejects.toMatchObject({
        statusCode: 404,
        message: 'Unrecognized request URL (GET: /v1/invoices/upcoming).',
      })
    }
  })

  it('answers the unrecognized-URL 404 at the current version too, with or without the old params', async () => {
    const { customer, legacy } = await subscribed('2026-10-28.endive')
    for (const params of [{}, { customer: customer.id }, { customer: customer.id, subscription_items: [{ price: 'price_x' }] }]) {
      const refused = await legacy.invoices!.retrieveUpcoming!(params).catch((e: { raw: unknown; statusCode: number }) => e)
      expect(refused.statusCode).toBe(404)
      // The same envelope as any URL the service does not know.
      expect(refused.raw).toMatchObject({
        type: 'invalid_request_error',
        code: 'url_unrecognized',
        message: 'Unrecognized request URL (GET: /v1/invoices/upcoming).',
      })
    }
    await expect(legacy.invoices!.listUpcomingLines!({ customer: customer.id })).rejects.toMatchObject({
      statusCode: 404,
      message: 'Unrecognized request URL (GET: /v1/invoices/upcoming/lines).',
    })
  })

  it('still answers an invoice retrieve and its lines at the current version, and resource_missing for an unknown id', async () => {
    const { stripe, subscription } = await subscribed('2026-10-28.endive')
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string)
    expect((await stripe.invoices.listLineItems(invoice.id)).data.length).toBe(1)
    await expect(stripe.invoices.retrieve('in_missing')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' })
  })

  it('answers 404 for a customer without a subscription, as the preview does', async () => {
    const { stripe, legacy } = await subscribed('2024-09-30.acacia')
    const other = await stripe.customers.create({ email: 'other@example.test' })
    await expect(legacy.invoices!.retrieveUpcoming!({ customer: other.id })).rejects.toMatchObject({
      statusCode: 404,
      code: 'invoice_upcoming_none',
    })
  })
})
