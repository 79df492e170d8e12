import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { setup, stateOf } from '../accounts/helpers.js'

const SUCCESS = 'https://shop.test/ok'

async function catalogue(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Tee' })
  const once = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 2000 })
  const monthly = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1500,
    recurring: { interval: 'month' },
  })
  return { once, monthly }
}

/** The types of the events emitted since `from`, in order. */
const typesSince = (sim: Simulator, from: number) =>
  sim.admin
    .events()
    .slice(from)
    .map((e) => e.type)

describe('sim.customer.completeCheckout', () => {
  it('pays a payment-mode session: payment intent, charge, then checkout.session.completed', async () => {
    const { sim, stripe } = setup()
    const { once } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: once.id, quantity: 2 }],
      success_url: SUCCESS,
      customer_email: 'jenny@example.com',
    })
    const before = sim.admin.events().length
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_visa' })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', customer: null, amount_total: 4000 })
    expect(typesSince(sim, before)).toEqual([
      'payment_intent.created',
      'charge.created',
      'charge.succeeded',
      'payment_intent.succeeded',
      'checkout.session.completed',
    ])
    const stored = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] })
    expect(stored.customer_details?.email).toBe('jenny@example.com')
    const pi = stored.payment_intent as Stripe.PaymentIntent
    expect(pi).toMatchObject({ status: 'succeeded', amount: 4000, currency: 'usd' })
    const completed = sim.admin.events({ type: 'checkout.session.completed' })[0]?.body as {
      data: { object: Stripe.Checkout.Session }
    }
    expect(completed.data.object).toMatchObject({ id: session.id, status: 'complete', payment_intent: pi.id })
  })

  it('makes the customer when customer_creation is always, and reuses the one the session names', async () => {
    const { sim, stripe } = setup()
    const { once } = await catalogue(stripe)
    const always = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer_creation: 'always',
      line_items: [{ price: once.id }],
      success_url: SUCCESS,
    })
    const made = await sim.customer.completeCheckout(always.id, { email: 'new@example.com' })
    const customer = await stripe.customers.retrieve(made.customer as string)
    expect(customer).toMatchObject({ email: 'new@example.com' })
    const named = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price: once.id }],
      success_url: SUCCESS,
    })
    const count = (await stripe.customers.list()).data.length
    const reused = await sim.customer.completeCheckout(named.id)
    expect(reused.customer).toBe(customer.id)
    expect((await stripe.customers.list()).data.length).toBe(count)
    expect((await stripe.paymentIntents.retrieve(reused.payment_intent as string)).customer).toBe(customer.id)
  })

  it('subscribes in subscription mode: customer, subscription with its first invoice paid, then completed', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id, quantity: 2 }],
      success_url: SUCCESS,
      customer_email: 'sub@example.com',
    })
    const before = sim.admin.events().length
    const done = await sim.customer.completeCheckout(session.id)
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' })
    const types = typesSince(sim, before)
    expect(types[0]).toBe('customer.created')
    expect(types.at(-1)).toBe('checkout.session.completed')
    for (const t of ['customer.subscription.created', 'invoice.finalized', 'payment_intent.succeeded', 'invoice.paid'])
      expect(types.indexOf(t), t).toBeGreaterThan(0)
    const sub = await stripe.subscriptions.retrieve(done.subscription as string)
    expect(sub).toMatchObject({ status: 'active', customer: done.customer })
    expect(sub.items.data[0]).toMatchObject({ price: { id: monthly.id }, quantity: 2 })
    const invoice = await stripe.invoices.retrieve(done.invoice as string)
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 3000,
      parent: { subscription_details: { subscription: sub.id } },
    })
    expect((await stripe.customers.retrieve(done.customer as string)) as Stripe.Customer).toMatchObject({
      email: 'sub@example.com',
    })
  })

  it('saves the payment method in setup mode with a succeeded setup intent, no payment', async () => {
    const { sim, stripe } = setup()
    const customer = await stripe.customers.create({ email: 'save@example.com' })
    const session = await stripe.checkout.sessions.create({
      mode: 'setup',
      currency: 'usd',
      customer: customer.id,
      success_url: SUCCESS,
    })
    const before = sim.admin.events().length
    const done = await sim.customer.completeCheckout(session.id)
    expect(done).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', customer: customer.id })
    const si = await stripe.setupIntents.retrieve(done.setup_intent as string)
    expect(si).toMatchObject({ status: 'succeeded', customer: customer.id })
    const pms = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' })
    expect(pms.data.map((p) => p.id)).toEqual([si.payment_method])
    const types = typesSince(sim, before)
    expect(types[0]).toBe('setup_intent.created')
    expect(types).toContain('payment_method.attached')
    expect(types.at(-1)).toBe('checkout.session.completed')
  })

  it('declines a declining card at the customer step: 402 card_error, session open, no completion; a retry pays', async () => {
    const { sim, stripe } = setup()
    const { once } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: once.id }],
      success_url: SUCCESS,
    })
    const refused = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_chargeDeclined' }).catch((e) => e)
    expect(refused).toMatchObject({ status: 402, type: 'card_error', code: 'card_declined' })
    const open = await stripe.checkout.sessions.retrieve(session.id)
    expect(open.status).toBe('open')
    expect(sim.admin.events({ type: 'checkout.session.completed' })).toEqual([])
    expect(sim.admin.events({ type: 'payment_intent.payment_failed' })).toHaveLength(1)
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_visa' })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: open.payment_intent })
  })

  it('refuses a declining card in subscription mode before making anything', async () => {
    const { sim, stripe } = setup()
    const { monthly } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id }],
      success_url: SUCCESS,
    })
    const state = stateOf(sim)
    const refused = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_chargeDeclined' }).catch((e) => e)
    expect(refused).toMatchObject({ status: 402, code: 'card_declined' })
    expect(stateOf(sim)).toBe(state)
  })

  it('refuses a session that is not open, or does not exist, changing nothing', async () => {
    const { sim, stripe } = setup()
    const { once } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: once.id }],
      success_url: SUCCESS,
    })
    await sim.customer.completeCheckout(session.id)
    const state = stateOf(sim)
    await expect(sim.customer.completeCheckout(session.id)).rejects.toMatchObject({ status: 400, message: /is complete/ })
    await expect(sim.customer.completeCheckout('cs_test_missing')).rejects.toMatchObject({
      status: 404,
      code: 'resource_missing',
    })
    await expect(sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_nope' })).rejects.toMatchObject({ status: 400 })
    expect(stateOf(sim)).toBe(state)
  })

  it('completes a bank debit unpaid, then async_payment_succeeded on the clock', async () => {
    const { sim, stripe } = setup()
    const { once } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: once.id }],
      success_url: SUCCESS,
    })
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_usBankAccount' })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'unpaid' })
    expect((await stripe.paymentIntents.retrieve(done.payment_intent as string)).status).toBe('processing')
    const before = sim.admin.events().length
    await sim.settle()
    expect(typesSince(sim, before).slice(-2)).toEqual(['payment_intent.succeeded', 'checkout.session.async_payment_succeeded'])
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid')
  })
  it('completes a failing bank debit unpaid, then async_payment_failed with the intent needing a new method', async () => {
    const { sim, stripe } = setup()
    const { once } = await catalogue(stripe)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: once.id }],
      success_url: SUCCESS,
    })
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_usBankAccount_accountClosed' })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'unpaid' })
    const before = sim.admin.events().length
    await sim.settle()
    expect(typesSince(sim, before)).toEqual([
      'charge.created',
      'charge.failed',
      'payment_intent.payment_failed',
      'checkout.session.async_payment_failed',
    ])
    const pi = await stripe.paymentIntents.retrieve(done.payment_intent as string, { expand: ['latest_charge'] })
    expect(pi).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_payment_error: { code: 'account_closed', payment_method: { type: 'us_bank_account' } },
      latest_charge: { status: 'failed', failure_code: 'account_closed' },
    })
    const failed = sim.admin.events({ type: 'checkout.session.async_payment_failed' })[0]?.body as {
      data: { object: Stripe.Checkout.Session }
    }
    expect(failed.data.object).toMatchObject({ id: session.id, status: 'complete', payment_status: 'unpaid' })
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ payment_status: 'unpaid' })
    expect(sim.admin.events({ type: 'checkout.session.async_payment_succeeded' })).toEqual([])
  })
})
