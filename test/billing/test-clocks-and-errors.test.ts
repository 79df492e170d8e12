import { describe, expect, it } from 'vitest'
import { billingClient, caught, payingCustomer } from './helpers.js'

const JAN1 = Date.UTC(2026, 0, 1) / 1000
const FEB1 = Date.UTC(2026, 1, 1) / 1000

describe('test clocks (official client)', () => {
  it('bills a customer on its test clock: advancing to the period end produces the invoice, advancing past the grace hour pays it', async () => {
    const { sim, stripe } = billingClient()
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: JAN1, name: 'monthly' })
    expect(clock).toMatchObject({ status: 'ready', frozen_time: JAN1 })
    const { customer } = await payingCustomer(stripe, 'pm_card_visa', { test_clock: clock.id })
    expect(customer.test_clock).toBe(clock.id)
    const product = await stripe.products.create({ name: 'Gold' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1500,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    expect(sub.start_date).toBe(JAN1)
    expect(sub.items.data[0]?.current_period_end).toBe(FEB1)

    const advancing = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB1 })
    expect(advancing.status).toBe('advancing')
    // Code written for the sandbox polls until ready: the first read sees the work done.
    let current = await stripe.testHelpers.testClocks.retrieve(clock.id)
    expect(current).toMatchObject({ status: 'ready', frozen_time: FEB1 })
    const [draft] = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data
    expect(draft).toMatchObject({ billing_reason: 'subscription_cycle', status: 'draft', amount_due: 1500, test_clock: clock.id })

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB1 + 3600 })
    await sim.settle()
    current = await stripe.testHelpers.testClocks.retrieve(clock.id)
    expect(current.status).toBe('ready')
    expect(await stripe.invoices.retrieve(draft?.id as string)).toMatchObject({ status: 'paid', amount_paid: 1500 })
    expect(sim.admin.events({ type: 'test_helpers.test_clock.advancing' })).toHaveLength(2)
    expect(sim.admin.events({ type: 'test_helpers.test_clock.ready' })).toHaveLength(2)
    const listed = await stripe.testHelpers.testClocks.list()
    expect(listed.data.map((c) => c.id)).toEqual([clock.id])
    const deleted = await stripe.testHelpers.testClocks.del(clock.id)
    expect(deleted.deleted).toBe(true)
  })
})

describe('refusals answer in the provider envelope and change nothing', () => {
  it('tiered price without tiers, metered price without a meter', async () => {
    const { stripe } = billingClient()
    const product = await stripe.products.create({ name: 'X' })
    const noTiers = await caught(
      stripe.prices.create({
        product: product.id,
        currency: 'usd',
        billing_scheme: 'tiered',
        tiers_mode: 'graduated',
        recurring: { interval: 'month' },
      }),
    )
    expect(noTiers).toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'parameter_missing',
      param: 'tiers',
    })
    const noMeter = await caught(
      stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 1,
        recurring: { interval: 'month', usage_type: 'metered' },
      }),
    )
    expect(noMeter).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'recurring[meter]' })
    expect((await stripe.prices.list()).data).toHaveLength(0)
  })

  it('a subscription with prices of two currencies', async () => {
    const { stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'X' })
    const usd = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 100,
      recurring: { interval: 'month' },
    })
    const eur = await stripe.prices.create({
      product: product.id,
      currency: 'eur',
      unit_amount: 100,
      recurring: { interval: 'month' },
    })
    const mixed = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: usd.id }, { price: eur.id }] }),
    )
    expect(mixed).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'items[1][price]' })
    expect((await stripe.subscriptions.list()).data).toHaveLength(0)
    expect((await stripe.invoices.list()).data).toHaveLength(0)
    expect((await stripe.subscriptionItems.list({ subscription: 'sub_none' }).catch(() => ({ data: [] }))).data).toHaveLength(0)
  })

  it('advancing a test clock backwards', async () => {
    const { stripe, sim } = billingClient()
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: FEB1 })
    const back = await caught(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN1 }))
    expect(back).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'frozen_time' })
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({ status: 'ready', frozen_time: FEB1 })
    expect(sim.admin.events({ type: 'test_helpers.test_clock.advancing' })).toHaveLength(0)
  })

  it('attaching a test card to a missing customer', async () => {
    const { stripe, sim } = billingClient()
    const missing = await caught(stripe.paymentMethods.attach('pm_card_visa', { customer: 'cus_missing' }))
    expect(missing).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' })
    expect(sim.admin.events({ type: 'payment_method.attached' })).toHaveLength(0)
    const customer = await stripe.customers.create({})
    expect((await stripe.paymentMethods.list({ customer: customer.id })).data).toHaveLength(0)
  })

  it('attach makes a new payment method from a test card each time', async () => {
    const { stripe } = billingClient()
    const customer = await stripe.customers.create({})
    const a = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
    const b = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
    expect(a.id).not.toBe(b.id)
    expect(a).toMatchObject({ customer: customer.id, card: { brand: 'visa', last4: '4242' } })
    const updated = await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: a.id } })
    expect(updated.invoice_settings.default_payment_method).toBe(a.id)
  })
})
