import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup, stateOf } from '../accounts/helpers.js'

const SUCCESS = 'https://shop.test/ok'
const DAY = 24 * 60 * 60

async function catalogue(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Plan' })
  const setupFee = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 500 })
  const monthly = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1500,
    recurring: { interval: 'month' },
  })
  const vat = await stripe.taxRates.create({ display_name: 'VAT', percentage: 10, inclusive: false })
  return { setupFee, monthly, vat }
}

describe('subscription-mode checkout: one-time items and subscription_data', () => {
  it('refuses a bank debit in subscription mode before making a customer', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
    })
    await expect(sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_usBankAccount' })).rejects.toThrow(
      /No such PaymentMethod/,
    )
    expect((await stripe.customers.list()).data).toEqual([])
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'open', customer: null })
  })

  it('puts the one-time prices on the first invoice beside the subscription', async () => {
    const { sim, stripe } = setup()
    const { setupFee, monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [
        { price: monthly.id, quantity: 1 },
        { price: setupFee.id, quantity: 2 },
      ],
      success_url: SUCCESS,
    })
    expect(session.amount_total).toBe(2500)
    const done = await sim.customer.completeCheckout(session.id)
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' })
    const sub = await stripe.subscriptions.retrieve(done.subscription as string)
    expect(sub.items.data.map((i) => i.price.id)).toEqual([monthly.id])
    const invoice = await stripe.invoices.retrieve(done.invoice as string)
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2500 })
    const lines = await stripe.invoices.listLineItems(invoice.id as string)
    expect(lines.data.map((l) => l.amount).sort((a, b) => a - b)).toEqual([1000, 1500])
  })

  it('applies subscription_data: trial, metadata, description and default tax rates', async () => {
    const { sim, stripe } = setup()
    const { monthly, vat } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
      subscription_data: {
        trial_period_days: 14,
        metadata: { plan: 'pro' },
        description: 'Pro plan',
        default_tax_rates: [vat.id],
      },
    })
    expect(session).not.toHaveProperty('subscription_data')
    // Nothing is due today: the session totals what the trial's first invoice charges.
    expect(session).toMatchObject({ amount_subtotal: 0, amount_total: 0, total_details: { amount_discount: 0, amount_tax: 0 } })
    const done = await sim.customer.completeCheckout(session.id)
    expect(done.payment_status).toBe('no_payment_required')
    expect(done.amount_total).toBe(0)
    const sub = await stripe.subscriptions.retrieve(done.subscription as string)
    expect(sub).toMatchObject({
      status: 'trialing',
      metadata: { plan: 'pro' },
      description: 'Pro plan',
      default_tax_rates: [{ id: vat.id }],
    })
    expect((sub.trial_end as number) - (sub.trial_start as number)).toBe(14 * DAY)
    const line = await stripe.checkout.sessions.listLineItems(session.id)
    expect(line.data[0]).not.toHaveProperty('subscription_data')
  })

  it('anchors the billing cycle where subscription_data asks', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const anchor = Math.floor(sim.clock.now / 1000) + 10 * DAY
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
      subscription_data: { billing_cycle_anchor: anchor },
    })
    const done = await sim.customer.completeCheckout(session.id)
    const sub = await stripe.subscriptions.retrieve(done.subscription as string)
    expect(sub.billing_cycle_anchor).toBe(anchor)
  })

  it('refuses bad subscription_data with 400, creating nothing', async () => {
    const { sim, stripe } = setup()
    const { setupFee, monthly } = await catalogue(stripe)
    const state = stateOf(sim)
    const now = Math.floor(sim.clock.now / 1000)
    const sub = { mode: 'subscription' as const, line_items: [{ price: monthly.id }], success_url: SUCCESS }
    const cases: [Stripe.Checkout.SessionCreateParams, string][] = [
      [
        {
          mode: 'payment',
          line_items: [{ price: setupFee.id }],
          success_url: SUCCESS,
          subscription_data: { metadata: { a: 'b' } },
        },
        'subscription_data',
      ],
      [{ ...sub, subscription_data: { trial_period_days: 0 } }, 'subscription_data[trial_period_days]'],
      [{ ...sub, subscription_data: { trial_end: now + DAY } }, 'subscription_data[trial_end]'],
      [{ ...sub, subscription_data: { trial_end: now + 3 * DAY, trial_period_days: 3 } }, 'subscription_data[trial_end]'],
      [{ ...sub, subscription_data: { billing_cycle_anchor: now - 1 } }, 'subscription_data[billing_cycle_anchor]'],
      [{ ...sub, subscription_data: { billing_cycle_anchor: now + 90 * DAY } }, 'subscription_data[billing_cycle_anchor]'],
      [{ ...sub, subscription_data: { default_tax_rates: ['txr_missing'] } }, 'subscription_data[default_tax_rates][0]'],
    ]
    for (const [params, param] of cases) {
      const refused = await stripe.checkout.sessions.create(params).catch((e) => e)
      expect(refused, param).toMatchObject({ statusCode: 400, param })
    }
    expect(stateOf(sim)).toBe(state)
  })
})

describe('subscription-mode checkout with a 3-D Secure card', () => {
  it('pays the first invoice on-session after the challenge: subscription active, card saved for renewals', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
    })
    const before = sim.admin.events().length
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_authenticationRequiredOnSetup' })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' })
    const types = sim.admin
      .events()
      .slice(before)
      .map((e) => e.type)
    expect(types).not.toContain('invoice.payment_failed')
    expect(types.indexOf('payment_intent.requires_action')).toBeLessThan(types.indexOf('invoice.paid'))
    expect(types.at(-1)).toBe('checkout.session.completed')
    const sub = await stripe.subscriptions.retrieve(done.subscription as string)
    expect(sub.status).toBe('active')
    // The renewal, with the customer away, goes through: the card was saved by the authenticated payment.
    await sim.clock.tickAsync(32 * DAY * 1000)
    const renewed = await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] })
    expect(renewed.status).toBe('active')
    expect((renewed.latest_invoice as Stripe.Invoice).status).toBe('paid')
  })

  it('saves the card with an authenticated setup intent when a trial leaves nothing to pay', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
      subscription_data: { trial_period_days: 7 },
    })
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_authenticationRequiredOnSetup' })
    expect(done.payment_status).toBe('no_payment_required')
    expect(sim.admin.events({ type: 'setup_intent.succeeded' })).toHaveLength(1)
    await sim.clock.tickAsync(8 * DAY * 1000)
    const sub = await stripe.subscriptions.retrieve(done.subscription as string, { expand: ['latest_invoice'] })
    expect(sub.status).toBe('active')
    expect((sub.latest_invoice as Stripe.Invoice).status).toBe('paid')
  })

  it('refuses a failed challenge with 402 before making anything; the session stays open', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
    })
    const state = stateOf(sim)
    const refused = await sim.customer
      .completeCheckout(session.id, { paymentMethod: 'pm_card_threeDSecure2Required', authentication: 'fail' })
      .catch((e) => e)
    expect(refused).toMatchObject({ status: 402, code: 'payment_intent_authentication_failure' })
    expect(stateOf(sim)).toBe(state)
  })
})
