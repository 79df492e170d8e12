import { describe, expect, it } from 'vitest'
import { setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

/** A us_bank_account payment method of the provider's test bank, saved to a new customer. */
async function bankAccount(stripe: ReturnType<typeof setup>['stripe']) {
  const customer = await stripe.customers.create({ email: 'ach@example.com' })
  const pm = await stripe.paymentMethods.create({
    type: 'us_bank_account',
    us_bank_account: { account_holder_type: 'individual', account_number: '000123456789', routing_number: '110000000' },
    billing_details: { name: 'Jenny Rosen' },
  })
  await stripe.paymentMethods.attach(pm.id, { customer: customer.id })
  return { customer, pm }
}

const ACCEPTANCE = { customer_acceptance: { type: 'offline' as const } }

describe('paymentIntents.verifyMicrodeposits', () => {
  it('waits for microdeposits, then verified with 32 and 45 debits the account', async () => {
    const { sim, stripe } = setup(301)
    const { customer, pm } = await bankAccount(stripe)
    expect(pm.us_bank_account).toMatchObject({ last4: '6789', routing_number: '110000000', bank_name: 'STRIPE TEST BANK' })
    const pi = await stripe.paymentIntents.create({
      amount: 10000,
      currency: 'usd',
      customer: customer.id,
      payment_method: pm.id,
      allowed_payment_method_types: ['us_bank_account'],
      mandate_data: ACCEPTANCE,
      confirm: true,
    })
    expect(pi.status).toBe('requires_action')
    expect(pi.next_action?.type).toBe('verify_with_microdeposits')
    expect(pi.next_action?.verify_with_microdeposits?.microdeposit_type).toBe('amounts')
    const verified = await stripe.paymentIntents.verifyMicrodeposits(pi.id, { amounts: [32, 45] })
    expect(verified.status).toBe('processing')
    await sim.settle()
    const done = await stripe.paymentIntents.retrieve(pi.id)
    expect(done.status).toBe('succeeded')
    const charge = await stripe.charges.retrieve(done.latest_charge as string)
    expect(charge.payment_method_details?.type).toBe('us_bank_account')
    const mandateId = charge.payment_method_details?.us_bank_account?.mandate as string
    const mandate = await stripe.mandates.retrieve(mandateId)
    expect(mandate).toMatchObject({ object: 'mandate', status: 'active', type: 'multi_use', payment_method: pm.id })
    expect(mandate.customer_acceptance.type).toBe('offline')
    // 0.8% ACH fee.
    expect((await stripe.balanceTransactions.retrieve(charge.balance_transaction as string)).fee).toBe(80)
    const types = sim.admin.events({}).map((e) => e.type)
    expect(types).toContain('payment_intent.processing')
    expect(types).toContain('payment_intent.succeeded')
    // The verified account is debited again without microdeposits.
    const again = await stripe.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      customer: customer.id,
      payment_method: pm.id,
      allowed_payment_method_types: ['us_bank_account'],
      confirm: true,
    })
    expect(again.status).toBe('processing')
  })

  it('takes the descriptor code SM11AA, and refuses wrong values changing nothing', async () => {
    const { sim, stripe } = setup(302)
    const { customer, pm } = await bankAccount(stripe)
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: customer.id,
      payment_method: pm.id,
      allowed_payment_method_types: ['us_bank_account'],
      mandate_data: ACCEPTANCE,
      confirm: true,
    })
    const before = stateOf(sim)
    const wrong = await caught(stripe.paymentIntents.verifyMicrodeposits(pi.id, { amounts: [32, 46] }))
    expect([wrong.statusCode, wrong.code]).toEqual([400, 'payment_method_microdeposit_verification_amounts_mismatch'])
    const code = await caught(stripe.paymentIntents.verifyMicrodeposits(pi.id, { descriptor_code: 'SM00AA' }))
    expect(code.code).toBe('payment_method_microdeposit_verification_descriptor_code_mismatch')
    const one = await caught(stripe.paymentIntents.verifyMicrodeposits(pi.id, { amounts: [32] }))
    expect(one.code).toBe('payment_method_microdeposit_verification_amounts_invalid')
    expect(stateOf(sim)).toBe(before)
    expect((await stripe.paymentIntents.verifyMicrodeposits(pi.id, { descriptor_code: 'SM11AA' })).status).toBe('processing')
    const twice = await caught(stripe.paymentIntents.verifyMicrodeposits(pi.id, { descriptor_code: 'SM11AA' }))
    expect([twice.statusCode, twice.code]).toEqual([400, 'payment_intent_unexpected_state'])
  })

  it('refuses a bank account without its numbers or holder name', async () => {
    const { stripe } = setup(303)
    const noName = await caught(
      stripe.paymentMethods.create({
        type: 'us_bank_account',
        us_bank_account: { account_number: '000123456789', routing_number: '110000000' },
      }),
    )
    expect([noName.statusCode, noName.code, noName.param]).toEqual([400, 'parameter_missing', 'billing_details[name]'])
  })
})

describe('mandates', () => {
  it('an off-session setup with the customer acceptance records a mandate to retrieve', async () => {
    const { stripe } = setup(304)
    const customer = await stripe.customers.create({ email: 's@example.com' })
    const si = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' })
    const confirmed = await stripe.setupIntents.confirm(si.id, {
      payment_method: 'pm_card_visa',
      mandate_data: { customer_acceptance: { type: 'online', online: { ip_address: '127.0.0.1', user_agent: 'test' } } },
    })
    expect(confirmed.status).toBe('succeeded')
    const mandate = await stripe.mandates.retrieve(confirmed.mandate as string)
    expect(mandate).toMatchObject({ status: 'active', payment_method: confirmed.payment_method })
    expect(mandate.customer_acceptance.online).toEqual({ ip_address: '127.0.0.1', user_agent: 'test' })
    const missing = await caught(stripe.mandates.retrieve('mandate_missing'))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
  })
})
