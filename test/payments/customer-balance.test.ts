import { describe, expect, it } from 'vitest'
import { setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

/** A customer and an intent paid from its cash balance, waiting for the transfer. */
async function waitingIntent(seed: number, amount = 5000) {
  const { sim, stripe } = setup(seed)
  const customer = await stripe.customers.create({ email: 'cash@example.com' })
  const pm = await stripe.paymentMethods.create({ type: 'customer_balance' })
  const pi = await stripe.paymentIntents.create({
    amount,
    currency: 'usd',
    customer: customer.id,
    payment_method: pm.id,
    allowed_payment_method_types: ['customer_balance'],
    confirm: true,
  })
  return { sim, stripe, customer, pi }
}

describe('paymentIntents.applyCustomerBalance', () => {
  it('waits for a transfer, then applies the funded cash balance in parts until it succeeds', async () => {
    const { sim, stripe, customer, pi } = await waitingIntent(321)
    expect(pi.status).toBe('requires_action')
    expect(pi.next_action?.display_bank_transfer_instructions?.amount_remaining).toBe(5000)
    const funded = await stripe.testHelpers.customers.fundCashBalance(customer.id, { amount: 3000, currency: 'usd' })
    expect(funded).toMatchObject({
      object: 'customer_cash_balance_transaction',
      type: 'funded',
      net_amount: 3000,
      ending_balance: 3000,
    })
    const part = await stripe.paymentIntents.applyCustomerBalance(pi.id)
    expect(part.status).toBe('requires_action')
    expect(part.next_action?.display_bank_transfer_instructions?.amount_remaining).toBe(2000)
    await stripe.testHelpers.customers.fundCashBalance(customer.id, { amount: 4000, currency: 'usd' })
    const paid = await stripe.paymentIntents.applyCustomerBalance(pi.id)
    expect([paid.status, paid.amount_received]).toEqual(['succeeded', 5000])
    const charge = await stripe.charges.retrieve(paid.latest_charge as string)
    expect(charge.payment_method_details?.type).toBe('customer_balance')
    const txns = await stripe.customers.listCashBalanceTransactions(customer.id)
    expect(txns.data.map((t) => [t.type, t.net_amount, t.ending_balance])).toEqual([
      ['applied_to_payment', -2000, 2000],
      ['funded', 4000, 4000],
      ['applied_to_payment', -3000, 0],
      ['funded', 3000, 3000],
    ])
    expect(sim.admin.events({ type: 'payment_intent.succeeded' })).toHaveLength(1)
  })

  it('refuses with no balance, too much, or a wrong status, changing nothing', async () => {
    const { sim, stripe, customer, pi } = await waitingIntent(322)
    const before = stateOf(sim)
    const empty = await caught(stripe.paymentIntents.applyCustomerBalance(pi.id))
    expect([empty.statusCode, empty.code]).toEqual([400, 'customer_cash_balance_empty'])
    expect(stateOf(sim)).toBe(before)
    await stripe.testHelpers.customers.fundCashBalance(customer.id, { amount: 1000, currency: 'usd' })
    const much = await caught(stripe.paymentIntents.applyCustomerBalance(pi.id, { amount: 1500 }))
    expect([much.statusCode, much.code, much.param]).toEqual([400, 'customer_cash_balance_short', 'amount'])
    const card = await stripe.paymentIntents.create({ amount: 900, currency: 'usd' })
    const wrong = await caught(stripe.paymentIntents.applyCustomerBalance(card.id))
    expect([wrong.statusCode, wrong.code]).toEqual([400, 'payment_intent_unexpected_state'])
  })
})
