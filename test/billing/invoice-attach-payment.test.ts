import { describe, expect, it } from 'vitest'
import { stateOf } from '../accounts/helpers.js'
import { billingClient, caught, openInvoice } from './helpers.js'

describe('invoices.attachPayment', () => {
  it('attaches a payment intent, and pays the invoice when the intent succeeds later', async () => {
    const { sim, stripe } = billingClient({ seed: 431 })
    const { customer, invoice } = await openInvoice(stripe)
    expect([invoice.status, invoice.amount_due]).toEqual(['open', 2500])
    const pi = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer: customer.id })
    const attached = await stripe.invoices.attachPayment(invoice.id, { payment_intent: pi.id, expand: ['payments'] })
    expect(attached.status).toBe('open')
    expect(attached.payments?.data[0]).toMatchObject({
      object: 'invoice_payment',
      status: 'open',
      is_default: false,
      amount_requested: 2500,
      payment: { type: 'payment_intent', payment_intent: pi.id },
    })
    await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' })
    const paid = await stripe.invoices.retrieve(invoice.id)
    expect([paid.status, paid.amount_paid, paid.amount_remaining]).toEqual(['paid', 2500, 0])
    const [record] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data
    expect(record).toMatchObject({ status: 'paid', amount_paid: 2500, payment: { payment_intent: pi.id } })
    expect(sim.admin.events({ type: 'invoice.paid' })).toHaveLength(1)
    expect(sim.admin.events({ type: 'invoice_payment.paid' })).toHaveLength(1)
  })

  it('pays the invoice at once with an intent that already succeeded', async () => {
    const { stripe } = billingClient({ seed: 432 })
    const { customer, invoice } = await openInvoice(stripe)
    const pi = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const paid = await stripe.invoices.attachPayment(invoice.id, { payment_intent: pi.id })
    expect([paid.status, paid.amount_paid]).toEqual(['paid', 2500])
  })

  it('cancels the intent an invoice waited on when an attached payment pays it', async () => {
    const { stripe } = billingClient({ seed: 433 })
    const customer = await stripe.customers.create({ email: 'buyer@example.com' })
    const product = await stripe.products.create({ name: 'Seat' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 2500,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.payments'],
    })
    const invoice = sub.latest_invoice as Exclude<typeof sub.latest_invoice, string | null>
    const own = invoice.payments?.data[0]?.payment.payment_intent as string
    expect(typeof own).toBe('string')
    const pi = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const paid = await stripe.invoices.attachPayment(invoice.id as string, { payment_intent: pi.id, expand: ['payments'] })
    expect(paid.status).toBe('paid')
    expect((await stripe.paymentIntents.retrieve(own)).status).toBe('canceled')
    const statuses = Object.fromEntries((paid.payments?.data ?? []).map((p) => [p.payment.payment_intent as string, p.status]))
    expect(statuses).toEqual({ [own]: 'canceled', [pi.id]: 'paid' })
  })

  it('refuses an intent in another currency, a used intent and an invoice not open, changing nothing', async () => {
    const { sim, stripe } = billingClient({ seed: 433 })
    const { customer, invoice } = await openInvoice(stripe)
    const eur = await stripe.paymentIntents.create({ amount: 2500, currency: 'eur', customer: customer.id })
    const before = stateOf(sim)
    const currency = await caught(stripe.invoices.attachPayment(invoice.id, { payment_intent: eur.id }))
    expect([currency.statusCode, currency.code, currency.param]).toEqual([400, 'parameter_invalid', 'payment_intent'])
    const missing = await caught(stripe.invoices.attachPayment(invoice.id, { payment_intent: 'pi_missing' }))
    expect([missing.statusCode, missing.code, missing.param]).toEqual([400, 'resource_missing', 'payment_intent'])
    expect(stateOf(sim)).toBe(before)
    const usd = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer: customer.id })
    await stripe.invoices.attachPayment(invoice.id, { payment_intent: usd.id })
    const twice = await caught(stripe.invoices.attachPayment(invoice.id, { payment_intent: usd.id }))
    expect(twice.message).toContain('already attached')
    const draft = await stripe.invoices.create({ customer: customer.id, collection_method: 'send_invoice', days_until_due: 3 })
    const other = await stripe.paymentIntents.create({ amount: 100, currency: 'usd', customer: customer.id })
    const notOpen = await caught(stripe.invoices.attachPayment(draft.id, { payment_intent: other.id }))
    expect([notOpen.statusCode, notOpen.code]).toEqual([400, 'invoice_unexpected_state'])
  })
})
