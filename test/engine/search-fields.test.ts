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
