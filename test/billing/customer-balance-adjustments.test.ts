import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe('customer balance transactions made through the API', () => {
  it("move the customer's balance, each showing the balance it left", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'credit@example.com' })
    const credit = await stripe.customers.createBalanceTransaction(customer.id, { amount: -500, currency: 'usd' })
    expect(credit).toMatchObject({ amount: -500, ending_balance: -500, type: 'adjustment' })
    const debit = await stripe.customers.createBalanceTransaction(customer.id, { amount: 200, currency: 'usd' })
    expect(debit.ending_balance).toBe(-300)
    const after = await stripe.customers.retrieve(customer.id)
    expect(after).toMatchObject({ balance: -300, currency: 'usd' })
    const listed = await stripe.customers.listBalanceTransactions(customer.id)
    expect(listed.data.map((t) => t.ending_balance)).toEqual([-300, -500])
  })

  it('lower the next invoice by the credit they gave', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'credit@example.com' })
    await stripe.customers.createBalanceTransaction(customer.id, { amount: -300, currency: 'usd' })
    await stripe.invoiceItems.create({ customer: customer.id, amount: 1000, currency: 'usd' })
    const draft = await stripe.invoices.create({
      customer: customer.id,
      collection_method: 'send_invoice',
      days_until_due: 7,
      pending_invoice_items_behavior: 'include',
    })
    const open = await stripe.invoices.finalizeInvoice(draft.id)
    expect(open).toMatchObject({ total: 1000, starting_balance: -300, ending_balance: 0, amount_due: 700 })
    expect(((await stripe.customers.retrieve(customer.id)) as { balance: number }).balance).toBe(0)
  })

  it('refuses a transaction for an unknown customer with 404 and records nothing', async () => {
    const { stripe, sim } = setup()
    const error = await stripe.customers.createBalanceTransaction('cus_missing', { amount: -500, currency: 'usd' }).then(
      () => undefined,
      (e: { statusCode?: number; code?: string }) => e,
    )
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' })
    expect(sim.service.events.all().length).toBe(0)
  })

  it("refuses a transaction in another currency than the customer's with 400 on currency, and changes nothing", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'credit@example.com' })
    await stripe.customers.createBalanceTransaction(customer.id, { amount: -500, currency: 'usd' })
    const error = await stripe.customers.createBalanceTransaction(customer.id, { amount: -100, currency: 'eur' }).then(
      () => undefined,
      (e: { statusCode?: number; code?: string; param?: string }) => e,
    )
    expect(error).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'currency' })
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ balance: -500, currency: 'usd' })
    expect((await stripe.customers.listBalanceTransactions(customer.id)).data).toHaveLength(1)
  })

  it('refuses a transaction in another currency than the pending invoice items the customer will be billed', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({})
    await stripe.invoiceItems.create({ customer: customer.id, amount: 1000, currency: 'usd' })
    const error = await stripe.customers.createBalanceTransaction(customer.id, { amount: -100, currency: 'eur' }).then(
      () => undefined,
      (e: { statusCode?: number; param?: string }) => e,
    )
    expect(error).toMatchObject({ statusCode: 400, param: 'currency' })
    expect((await stripe.customers.listBalanceTransactions(customer.id)).data).toHaveLength(0)
  })
})
