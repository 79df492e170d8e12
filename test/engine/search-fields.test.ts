import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe('search query fields', () => {
  it('refuses a field the resource does not have with 400 naming it, instead of matching nothing', async () => {
    const { stripe } = setup()
    await stripe.customers.create({ email: 'ada@example.com' })
    const error = await stripe.customers.search({ query: "emial:'ada@example.com'" }).then(
      () => undefined,
      (e: { statusCode?: number; code?: string; param?: string; message?: string }) => e,
    )
    expect(error).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'query' })
    expect(error?.message).toContain('Field `emial` is an unsupported search field for resource `customers`')
  })

  it('names the resource of the search it refuses', async () => {
    const { stripe } = setup()
    const error = await stripe.paymentIntents.search({ query: "colour:'red'" }).then(
      () => undefined,
      (e: { message?: string }) => e,
    )
    expect(error?.message).toContain('for resource `payment_intents`')
  })

  it("still takes the object's fields, nested ones, metadata and the invoice's documented extra fields", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'ada@example.com', name: 'Ada' })
    expect((await stripe.customers.search({ query: "email:'ada@example.com' AND name:'Ada'" })).data).toHaveLength(1)
    expect((await stripe.customers.search({ query: 'created>0' })).data.map((c) => c.id)).toEqual([customer.id])
    expect((await stripe.customers.search({ query: "metadata['anything']:'x'" })).data).toEqual([])
    expect((await stripe.charges.search({ query: "payment_method_details.card.last4:'4242'" })).data).toEqual([])
    expect((await stripe.invoices.search({ query: "last_finalization_error_code:'x' OR receipt_number:'1'" })).data).toEqual([])
  })
})

describe('invoice search fields the invoice object does not show', () => {
  it("finds a subscription's invoices by subscription, and finalization errors by their flattened fields", async () => {
    const { stripe } = setup()
    const price = await stripe.prices.create({
      unit_amount: 1000,
      currency: 'usd',
      recurring: { interval: 'month' },
      product_data: { name: 'Plan' },
    })
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const other = await stripe.customers.create({})
    await stripe.invoiceItems.create({ customer: other.id, amount: 500, currency: 'usd' })
    await stripe.invoices.create({ customer: other.id, pending_invoice_items_behavior: 'include' })
    const found = await stripe.invoices.search({ query: `subscription:'${sub.id}'` })
    expect(found.data.map((i) => i.id)).toEqual([sub.latest_invoice])
    expect((await stripe.invoices.search({ query: "last_finalization_error_code:'x'" })).data).toEqual([])
  })
})
