import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { form, setup } from '../accounts/helpers.js'

async function plan(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Basic' })
  return stripe.prices.create({ product: product.id, unit_amount: 500, currency: 'usd', recurring: { interval: 'month' } })
}

/** The event types of the account, oldest first. */
async function eventTypes(stripe: Stripe): Promise<string[]> {
  return (await stripe.events.list({ limit: 100 })).data.map((e) => e.type).reverse()
}

describe('invoice.payment_action_required', () => {
  it('is sent, with the invoice, when billing charges a card whose issuer wants the customer to authenticate', async () => {
    const { stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({ payment_method: 'pm_card_authenticationRequired' })
    const card = (await stripe.paymentMethods.list({ customer: customer.id, type: 'card' })).data[0] as Stripe.PaymentMethod
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: card.id,
    })
    expect(sub.status).toBe('incomplete')
    const events = await stripe.events.list({ type: 'invoice.payment_action_required' })
    expect(events.data).toHaveLength(1)
    expect(events.data[0]?.data.object).toMatchObject({ id: sub.latest_invoice, status: 'open' })
    const types = await eventTypes(stripe)
    expect(types.indexOf('invoice.payment_action_required')).toBeGreaterThan(types.indexOf('invoice.payment_failed'))
  })

  it('is sent when the customer confirms the invoice intent with a card that stops for 3-D Secure, and not for a card that pays', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.confirmation_secret'],
    })
    const invoice = sub.latest_invoice as Stripe.Invoice
    const secret = invoice.confirmation_secret?.client_secret as string
    const id = secret.slice(0, secret.indexOf('_secret_'))
    const confirm = (pm: string) =>
      form(sim, sim.platform.publishableKey.test, 'POST', `/v1/payment_intents/${id}/confirm`, {
        client_secret: secret,
        payment_method: pm,
      })

    const waiting = await confirm('pm_card_authenticationRequired')
    expect(waiting.body).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } })
    const told = await stripe.events.list({ type: 'invoice.payment_action_required' })
    expect(told.data.map((e) => (e.data.object as Stripe.Invoice).id)).toEqual([invoice.id])
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'open' })

    const { stripe: other, sim: otherSim } = setup(2)
    const otherPrice = await plan(other)
    const otherCustomer = await other.customers.create({ email: 'ann@example.com' })
    const paidSub = await other.subscriptions.create({
      customer: otherCustomer.id,
      items: [{ price: otherPrice.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.confirmation_secret'],
    })
    const paidSecret = (paidSub.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret as string
    const paid = await form(
      otherSim,
      otherSim.platform.publishableKey.test,
      'POST',
      `/v1/payment_intents/${paidSecret.slice(0, paidSecret.indexOf('_secret_'))}/confirm`,
      { client_secret: paidSecret, payment_method: 'pm_card_visa' },
    )
    expect(paid.body.status).toBe('succeeded')
    expect((await other.events.list({ type: 'invoice.payment_action_required' })).data).toEqual([])
  })
})
