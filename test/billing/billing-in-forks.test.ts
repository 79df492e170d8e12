import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { billingClient, DAY, openInvoice, payingCustomer } from './helpers.js'

/** The official client over another simulator (a fork, a loaded snapshot). */
function clientOf(sim: Simulator): Stripe {
  return new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
}

// A fork or a loaded snapshot whose first billing work comes from its pending jobs or its event
// listeners, not from a billing call, bills exactly as the simulator it came from.
describe('billing in forks and loaded snapshots', () => {
  it('renews a subscription at its period end when no billing call came first, as the original does', async () => {
    const { sim, stripe } = billingClient({ seed: 811 })
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Seat' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1200,
      recurring: { interval: 'month' },
    })
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const loaded = createSimulator({ from: sim.snapshot() })
    const forked = sim.fork()
    for (const s of [sim, loaded, forked]) await s.clock.tickAsync(32 * DAY)
    const invoices = await Promise.all(
      [sim, loaded, forked].map(async (s) =>
        (await clientOf(s).invoices.list({ customer: customer.id })).data.map((i) => [i.id, i.status, i.amount_paid]),
      ),
    )
    expect(invoices[0]).toHaveLength(2)
    expect(invoices[0]?.every(([, status, paid]) => status === 'paid' && paid === 1200)).toBe(true)
    expect(invoices[1]).toEqual(invoices[0])
    expect(invoices[2]).toEqual(invoices[0])
    expect(forked.trace.hash()).toBe(sim.trace.hash())
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
  })

  it('pays an invoice in a fork when a payment intent attached before the fork succeeds there, and leaves the original open', async () => {
    const { sim, stripe } = billingClient({ seed: 812 })
    const { customer, invoice } = await openInvoice(stripe)
    const pi = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer: customer.id })
    await stripe.invoices.attachPayment(invoice.id, { payment_intent: pi.id })
    const forked = sim.fork()
    const inFork = clientOf(forked)
    await inFork.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' })
    const paid = await inFork.invoices.retrieve(invoice.id)
    expect([paid.status, paid.amount_paid]).toEqual(['paid', 2500])
    expect(forked.admin.events({ type: 'invoice_payment.paid' })).toHaveLength(1)
    const original = await stripe.invoices.retrieve(invoice.id)
    expect([original.status, original.amount_paid]).toEqual(['open', 0])
  })

  it('confirms a payment no invoice waits on in a fork without paying any invoice, and the original never sees it', async () => {
    const { sim, stripe } = billingClient({ seed: 813 })
    const forked = sim.fork()
    const pi = await clientOf(forked).paymentIntents.create({
      amount: 900,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    expect(pi.status).toBe('succeeded')
    expect(forked.admin.events({ type: 'invoice.paid' })).toHaveLength(0)
    expect((await stripe.paymentIntents.list()).data).toHaveLength(0)
  })
})
