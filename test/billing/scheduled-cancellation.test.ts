import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { billingClient, caught, DAY, payingCustomer } from './helpers.js'

/** A paying customer on a $10 monthly subscription, through the official client over `sim.fetch`. */
async function subscribed() {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe, 'pm_card_visa')
  const product = await b.stripe.products.create({ name: 'Seat' })
  const price = await b.stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
  })
  const sub = await b.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  return { ...b, sub }
}

type Updated = { object: Stripe.Subscription; previous_attributes: Record<string, unknown> }

/** The last `customer.subscription.updated` the simulator emitted: its object and previous attributes. */
function lastUpdated(sim: ReturnType<typeof billingClient>['sim']): Updated {
  const [event] = sim.admin.events({ type: 'customer.subscription.updated' }).slice(-1)
  return event?.body.data as Updated
}

describe('clearing a scheduled cancellation', () => {
  it("restores a subscription set to cancel at the period end when cancel_at is cleared with ''", async () => {
    const { sim, stripe, sub } = await subscribed()
    const periodEnd = sub.items.data[0]?.current_period_end
    const canceling = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })
    expect(canceling).toMatchObject({ cancel_at_period_end: true, cancel_at: periodEnd })

    const restored = await stripe.subscriptions.update(sub.id, { cancel_at: '' })
    expect(restored).toMatchObject({ cancel_at: null, cancel_at_period_end: false, canceled_at: null, status: 'active' })
    const { object, previous_attributes } = lastUpdated(sim)
    expect(object).toMatchObject({ id: sub.id, cancel_at: null, cancel_at_period_end: false, canceled_at: null })
    expect(previous_attributes).toMatchObject({ cancel_at: periodEnd, cancel_at_period_end: true })
    expect(previous_attributes.canceled_at).toEqual(expect.any(Number))

    // Nothing cancels it at the period end any more: it renews.
    await sim.clock.tickAsync(35 * DAY)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    expect(sim.admin.events({ type: 'customer.subscription.deleted' })).toHaveLength(0)
  })

  it('replaces a cancellation at the period end by a dated one: cancel_at_period_end turns false', async () => {
    const { sim, stripe, sub } = await subscribed()
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })
    const at = Math.floor(sim.clock.now / 1000) + 3 * 86_400
    const dated = await stripe.subscriptions.update(sub.id, { cancel_at: at })
    expect(dated).toMatchObject({ cancel_at: at, cancel_at_period_end: false })
    expect(lastUpdated(sim).previous_attributes).toMatchObject({ cancel_at_period_end: true })
    await sim.clock.tickAsync(4 * DAY)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled')
  })

  it('refuses cancel_at together with cancel_at_period_end with 400, changing nothing', async () => {
    const { sim, stripe, sub } = await subscribed()
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })
    const events = sim.admin.events({ type: 'customer.subscription.updated' }).length
    const refused = await caught(stripe.subscriptions.update(sub.id, { cancel_at: '', cancel_at_period_end: false }))
    expect(refused).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      message: 'Received both cancel_at_period_end and cancel_at parameters. Please pass in only one.',
    })
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ cancel_at_period_end: true })
    expect(sim.admin.events({ type: 'customer.subscription.updated' })).toHaveLength(events)
  })

  it('refuses a new subscription given both cancel_at and cancel_at_period_end with 400, making nothing', async () => {
    const { sim, stripe, sub } = await subscribed()
    const price = sub.items.data[0]?.price.id ?? ''
    const made = (await stripe.subscriptions.list({ customer: String(sub.customer) })).data.length
    const refused = await caught(
      stripe.subscriptions.create({
        customer: String(sub.customer),
        items: [{ price }],
        cancel_at: Math.floor(sim.clock.now / 1000) + 40 * 86_400,
        cancel_at_period_end: true,
      }),
    )
    expect(refused).toMatchObject({
      statusCode: 400,
      message: 'Received both cancel_at_period_end and cancel_at parameters. Please pass in only one.',
    })
    expect((await stripe.subscriptions.list({ customer: String(sub.customer) })).data).toHaveLength(made)
  })

  it('still restores with cancel_at_period_end: false, clearing cancel_at', async () => {
    const { stripe, sub } = await subscribed()
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })
    const kept = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: false })
    expect(kept).toMatchObject({ cancel_at: null, cancel_at_period_end: false, canceled_at: null })
  })
})
