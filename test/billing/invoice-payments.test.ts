import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { billingClient, caught, HOUR, payingCustomer } from './helpers.js'

const T0 = Date.UTC(2026, 0, 31) / 1000
const FEB28 = Date.UTC(2026, 1, 28) / 1000

describe('invoice payments (official client, prefix Stripe)', () => {
  it('completes usage to a paid invoice and reads the payment that paid it through invoicePayments, with invoice_payment.paid delivered and signed', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const meter = await stripe.billing.meters.create({
      display_name: 'Calls',
      event_name: 'api_call',
      default_aggregation: { formula: 'sum' },
    })
    const product = await stripe.products.create({ name: 'API' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 3,
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const d = await stripe.v2.core.eventDestinations.create({
      name: 'payments',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['invoice_payment.paid'],
      webhook_endpoint: { url: 'https://hooks.example.test/payments' },
      include: ['webhook_endpoint.signing_secret'],
    })
    const deliveries: { raw: string; signature: string }[] = []
    sim.receivers.mount('https://hooks.example.test/payments', async (req) => {
      deliveries.push({ raw: await req.text(), signature: req.headers.get('Stripe-Signature') ?? '' })
      return new Response('{}')
    })
    await stripe.v2.billing.meterEvents.create({
      event_name: 'api_call',
      payload: { stripe_customer_id: customer.id, value: '400' },
    })
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    await sim.clock.tickAsync((FEB28 - T0) * 1000 + HOUR)
    await sim.settle()

    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 1200 })
    const payments = await stripe.invoicePayments.list({ invoice: invoice?.id as string })
    expect(payments.data).toHaveLength(1)
    const [payment] = payments.data
    expect(payment).toMatchObject({
      object: 'invoice_payment',
      invoice: invoice?.id,
      amount_paid: 1200,
      amount_requested: 1200,
      currency: 'usd',
      is_default: true,
      status: 'paid',
      status_transitions: { canceled_at: null, paid_at: FEB28 + 3600 },
      payment: { type: 'payment_intent' },
    })
    const again = await stripe.invoicePayments.retrieve(payment?.id as string, { expand: ['payment.payment_intent'] })
    const intent = again.payment.payment_intent as Stripe.PaymentIntent
    expect(intent).toMatchObject({ status: 'succeeded', amount: 1200, customer: customer.id })
    const charge = await stripe.charges.retrieve(intent.latest_charge as string)
    expect(charge).toMatchObject({ paid: true, amount: 1200, payment_intent: intent.id })
    // The first invoice asked nothing (metered, in advance), so no payment paid it.
    expect((await stripe.invoicePayments.list({ invoice: sub.latest_invoice as string })).data).toEqual([])
    // Filtered by the payment intent too.
    const byIntent = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intent.id } })
    expect(byIntent.data.map((p) => p.id)).toEqual([payment?.id])

    const delivered = deliveries.find((x) => JSON.parse(x.raw).data.object.id === payment?.id)
    expect(delivered).toBeDefined()
    const event = stripe.webhooks.constructEvent(
      delivered?.raw ?? '',
      delivered?.signature ?? '',
      d.webhook_endpoint?.signing_secret as string,
      300,
      undefined,
      Math.floor(sim.clock.now / 1000),
    )
    expect(event.type).toBe('invoice_payment.paid')
  })

  it('answers a manual invoice paid with invoices.pay, and 404 for an unknown invoice payment', async () => {
    const { stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    await stripe.invoiceItems.create({ customer: customer.id, amount: 700, currency: 'usd' })
    const draft = await stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' })
    const paid = await stripe.invoices.pay(draft.id)
    expect(paid.status).toBe('paid')
    const [payment] = (await stripe.invoicePayments.list({ invoice: draft.id })).data
    expect(payment).toMatchObject({ amount_paid: 700, status: 'paid', invoice: draft.id })
    const missing = await caught(stripe.invoicePayments.retrieve('inpay_missing'))
    expect(missing.statusCode).toBe(404)
    expect(missing.code).toBe('resource_missing')
  })
})
