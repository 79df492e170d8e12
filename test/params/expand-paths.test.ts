import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { caught, officialClient } from '../payments/helpers.js'

/** `expand[]` takes only paths the answer can expand, checked before the request changes anything. */
describe('expand paths', () => {
  it('expands an id field, a nested one and a list item field', async () => {
    const { stripe } = officialClient(5)
    const customer = await stripe.customers.create({ email: 'x@example.com' })
    const pi = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      expand: ['customer', 'latest_charge.balance_transaction'],
    })
    expect((pi.customer as Stripe.Customer).email).toBe('x@example.com')
    const charge = pi.latest_charge as Stripe.Charge
    expect((charge.balance_transaction as Stripe.BalanceTransaction).object).toBe('balance_transaction')
    const list = await stripe.paymentIntents.list({ expand: ['data.customer'] })
    expect((list.data[0]?.customer as Stripe.Customer | undefined)?.id).toBe(customer.id)
  })

  it('refuses to expand a field that holds no id with 400 naming the path', async () => {
    const { stripe } = officialClient(5)
    const customer = await stripe.customers.create({ email: 'x@example.com' })
    const err = await caught(stripe.customers.retrieve(customer.id, { expand: ['email'] }))
    expect(err.statusCode).toBe(400)
    expect(err.param).toBe('expand')
    expect(err.message).toBe('This property cannot be expanded (email).')
  })

  it('refuses an unknown field and a list path without data., creating nothing', async () => {
    const { stripe } = officialClient(5)
    const err = await caught(stripe.customers.create({ email: 'y@example.com', expand: ['nonsense'] }))
    expect(err.message).toBe('This property cannot be expanded (nonsense).')
    expect((await stripe.customers.list()).data).toHaveLength(0)
    const listErr = await caught(stripe.customers.list({ expand: ['default_source'] }))
    expect(listErr.message).toBe('This property cannot be expanded (default_source).')
  })
})
