import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

async function openInvoice(stripe: ReturnType<typeof setup>['stripe']) {
  const customer = await stripe.customers.create({ email: 'payer@example.com' })
  await stripe.invoiceItems.create({ customer: customer.id, amount: 3000, currency: 'usd' })
  const draft = await stripe.invoices.create({
    customer: customer.id,
    collection_method: 'send_invoice',
    days_until_due: 30,
    pending_invoice_items_behavior: 'include',
  })
  return stripe.invoices.finalizeInvoice(draft.id as string)
}

describe('sim.customer.payInvoice', () => {
  it('leaves the invoice open on a declined card, then pays it with a good one', async () => {
    const { sim, stripe } = setup()
    const invoice = await openInvoice(stripe)
    expect(invoice.status).toBe('open')
    const declined = sim.customer.payInvoice(invoice.id as string, { paymentMethod: 'pm_card_chargeDeclined' })
    expect(declined.error).toMatchObject({ type: 'card_error', code: 'card_declined' })
    expect((await stripe.invoices.retrieve(invoice.id as string)).status).toBe('open')
    const paid = sim.customer.payInvoice(invoice.id as string, { paymentMethod: 'pm_card_visa' })
    expect(paid.error).toBeUndefined()
    expect(paid.invoice.status).toBe('paid')
    expect((await stripe.invoices.retrieve(invoice.id as string)).amount_paid).toBe(3000)
  })

  it('refuses an invoice that is not open', async () => {
    const { sim, stripe } = setup()
    const customer = await stripe.customers.create({})
    const draft = await stripe.invoices.create({ customer: customer.id })
    expect(() => sim.customer.payInvoice(draft.id as string, { paymentMethod: 'pm_card_visa' })).toThrow(/draft/)
  })
})

describe('sim.customer.portal', () => {
  async function subscribed(stripe: ReturnType<typeof setup>['stripe']) {
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    const product = await stripe.products.create({ name: 'Plan' })
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 1000,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const other = await stripe.prices.create({
      product: product.id,
      unit_amount: 2500,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    return { customer, product, price, other, sub }
  }

  it('cancels at the period end under the default configuration and refuses plan changes it does not offer', async () => {
    const { sim, stripe } = setup()
    const { customer, sub, other } = await subscribed(stripe)
    const session = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'https://example.com' })
    const portal = sim.customer.portal(session.id)
    expect(() => portal.updateSubscription(sub.id, { price: other.id })).toThrow(/does not allow/)
    const cancelled = portal.cancelSubscription(sub.id)
    expect(cancelled.cancel_at_period_end).toBe(true)
    expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true)
  })

  it('changes the price and quantity where the configuration allows, and saves a new default card', async () => {
    const { sim, stripe } = setup()
    const { customer, sub, other, product, price } = await subscribed(stripe)
    const configuration = await stripe.billingPortal.configurations.create({
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price', 'quantity'],
          proration_behavior: 'none',
          products: [{ product: product.id, prices: [price.id, other.id] }],
        },
        payment_method_update: { enabled: true },
      },
    })
    const session = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: configuration.id })
    const portal = sim.customer.portal(session.id)
    portal.updateSubscription(sub.id, { price: other.id, quantity: 2 })
    const after = await stripe.subscriptions.retrieve(sub.id)
    expect(after.items.data[0]).toMatchObject({ price: { id: other.id }, quantity: 2 })
    expect(() => portal.cancelSubscription(sub.id)).toThrow(/does not allow/)
    const updated = portal.updatePaymentMethod('pm_card_mastercard')
    const pm = await stripe.paymentMethods.retrieve(
      (updated.invoice_settings as { default_payment_method: string }).default_payment_method,
    )
    expect(pm.card?.last4).toBe('4444')
    expect(pm.customer).toBe(customer.id)
  })

  it("refuses another customer's subscription as unknown", async () => {
    const { sim, stripe } = setup()
    const { sub } = await subscribed(stripe)
    const stranger = await stripe.customers.create({})
    const session = await stripe.billingPortal.sessions.create({ customer: stranger.id })
    expect(() => sim.customer.portal(session.id).cancelSubscription(sub.id)).toThrow(/No such subscription/)
  })
})
