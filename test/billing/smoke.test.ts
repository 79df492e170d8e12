import { describe, expect, it } from 'vitest'
import { billingClient, DAY, HOUR, payingCustomer } from './helpers.js'

describe('billing smoke', () => {
  it('licensed monthly', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Gold' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1500,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id, quantity: 2 }] })
    expect(sub.status).toBe('active')
    const inv = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(inv.status).toBe('paid')
    expect(inv.amount_paid).toBe(3000)
    console.log(
      sim.admin
        .events()
        .map((e) => e.type)
        .join(' '),
    )
    await sim.clock.tickAsync(28 * DAY + HOUR)
    const invs = await stripe.invoices.list({ customer: customer.id })
    console.log(invs.data.map((i) => [i.billing_reason, i.status, i.amount_due, i.period_start, i.period_end]))
  })
})
