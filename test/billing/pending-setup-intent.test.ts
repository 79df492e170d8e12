import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { billingClient, DAY, monthlyPrice, payingCustomer } from './helpers.js'

/** A metered monthly price of 3 cents a unit over a `tokens` meter. */
async function meteredPrice(stripe: Stripe) {
  const meter = await stripe.billing.meters.create({
    event_name: 'tokens',
    display_name: 'Tokens',
    default_aggregation: { formula: 'sum' },
  })
  const product = await stripe.products.create({ name: 'Tokens' })
  return stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 3,
    recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
  })
}

/** The usage-based sample's subscription: metered, `default_incomplete`, saving the card on the subscription. */
function subscribe(stripe: Stripe, customer: string, price: string, extra: Partial<Stripe.SubscriptionCreateParams> = {}) {
  return stripe.subscriptions.create({
    customer,
    items: [{ price }],
    payment_behavior: 'default_incomplete',
    payment_settings: { save_default_payment_method: 'on_subscription' },
    expand: ['pending_setup_intent'],
    ...extra,
  })
}

describe('pending_setup_intent on subscriptions with nothing to pay now (official client)', () => {
  it('a metered default_incomplete subscription is active, its $0 first invoice paid, with a setup intent to confirm', async () => {
    const { stripe } = billingClient()
    const price = await meteredPrice(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    const sub = await subscribe(stripe, customer.id, price.id)
    expect(sub.status).toBe('active')
    const si = sub.pending_setup_intent as Stripe.SetupIntent
    expect(si).toMatchObject({ object: 'setup_intent', customer: customer.id, usage: 'off_session' })
    expect(si.status).toBe('requires_payment_method')
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_`))
    expect(await stripe.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({ status: 'paid', amount_due: 0 })
  })

  it('a fully discounted first invoice also leaves the subscription active with a pending setup intent', async () => {
    const { stripe } = billingClient()
    const { price } = await monthlyPrice(stripe, 900)
    const coupon = await stripe.coupons.create({ percent_off: 100, duration: 'once' })
    const customer = await stripe.customers.create({})
    const sub = await subscribe(stripe, customer.id, price.id, { discounts: [{ coupon: coupon.id }] })
    expect(sub.status).toBe('active')
    expect(typeof (sub.pending_setup_intent as Stripe.SetupIntent | null)?.id).toBe('string')
  })

  it('a metered subscription created with the default payment behaviour and no card also waits on a setup intent', async () => {
    const { stripe } = billingClient()
    const price = await meteredPrice(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      expand: ['pending_setup_intent'],
    })
    expect(sub.status).toBe('active')
    expect(sub.pending_setup_intent).toMatchObject({ object: 'setup_intent', status: 'requires_payment_method' })
  })

  it('a trial for a customer with a default card needs no setup intent', async () => {
    const { stripe } = billingClient()
    const { price } = await monthlyPrice(stripe, 900)
    const { customer } = await payingCustomer(stripe)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], trial_period_days: 7 })
    expect(sub.status).toBe('trialing')
    expect(sub.pending_setup_intent).toBeNull()
  })

  it('a first invoice with an amount due makes no setup intent', async () => {
    const { stripe } = billingClient()
    const { price } = await monthlyPrice(stripe, 900)
    const customer = await stripe.customers.create({})
    const sub = await subscribe(stripe, customer.id, price.id)
    expect(sub.status).toBe('incomplete')
    expect(sub.pending_setup_intent).toBeNull()
  })

  it('confirming it saves the card on the customer and the subscription, clears it, and the cycle invoice is paid with that card', async () => {
    const { sim, stripe, httpClient } = billingClient({ start: '2026-01-01T00:00:00.000Z' })
    const price = await meteredPrice(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    const sub = await subscribe(stripe, customer.id, price.id)
    const si = sub.pending_setup_intent as Stripe.SetupIntent
    const confirmed = sim.customer.confirmSetupIntent(si.client_secret as string, { paymentMethod: 'pm_card_visa' })
    expect(confirmed.error).toBeUndefined()
    const pm = confirmed.intent.payment_method as string
    expect((await stripe.paymentMethods.retrieve(pm)).customer).toBe(customer.id)
    const after = await stripe.subscriptions.retrieve(sub.id)
    expect(after).toMatchObject({ pending_setup_intent: null, default_payment_method: pm, status: 'active' })
    const updated = sim.admin.events({ type: 'customer.subscription.updated' }).at(-1)
    expect((updated?.body.data as { previous_attributes?: unknown } | undefined)?.previous_attributes).toMatchObject({
      pending_setup_intent: si.id,
      default_payment_method: null,
    })
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new (stripe.constructor as typeof Stripe)(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    await streamer.v2.billing.meterEventStream.create({
      events: [{ event_name: 'tokens', identifier: 'a', payload: { stripe_customer_id: customer.id, value: '40' } }],
    })
    await sim.clock.tickAsync(32 * DAY)
    const cycle = (await stripe.invoices.list({ subscription: sub.id })).data.find(
      (i) => i.billing_reason === 'subscription_cycle',
    )
    expect(cycle).toMatchObject({ status: 'paid', amount_paid: 120 })
    expect(sim.admin.events({ type: 'invoice.payment_failed' })).toHaveLength(0)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('server-side setupIntents.confirm settles it too, the card becoming the subscription default without on_subscription', async () => {
    const { stripe } = billingClient()
    const price = await meteredPrice(stripe)
    const customer = await stripe.customers.create({})
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
    })
    const done = await stripe.setupIntents.confirm(sub.pending_setup_intent as string, { payment_method: 'pm_card_visa' })
    expect(done.status).toBe('succeeded')
    expect((await stripe.paymentMethods.retrieve(done.payment_method as string)).customer).toBe(customer.id)
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({
      pending_setup_intent: null,
      default_payment_method: done.payment_method,
    })
  })

  it('refuses a card attached to another customer with 400 and leaves the setup intent and subscription as they were', async () => {
    const { stripe } = billingClient()
    const price = await meteredPrice(stripe)
    const other = await stripe.customers.create({})
    const theirs = await stripe.paymentMethods.attach('pm_card_visa', { customer: other.id })
    const customer = await stripe.customers.create({})
    const sub = await subscribe(stripe, customer.id, price.id)
    const si = sub.pending_setup_intent as Stripe.SetupIntent
    const error = await stripe.setupIntents.confirm(si.id, { payment_method: theirs.id }).catch((e: unknown) => e)
    expect(error).toMatchObject({ statusCode: 400 })
    expect((await stripe.setupIntents.retrieve(si.id)).status).toBe('requires_payment_method')
    expect((await stripe.subscriptions.retrieve(sub.id)).pending_setup_intent).toBe(si.id)
  })
})
