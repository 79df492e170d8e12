import { describe, expect, it } from 'vitest'
import { setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

/** A us_bank_account payment method entered by hand, and a setup intent of its customer. */
async function bankSetup(stripe: ReturnType<typeof setup>['stripe']) {
  const customer = await stripe.customers.create({ email: 'ach@example.com' })
  const pm = await stripe.paymentMethods.create({
    type: 'us_bank_account',
    us_bank_account: { account_holder_type: 'individual', account_number: '000123456789', routing_number: '110000000' },
    billing_details: { name: 'Jenny Rosen' },
  })
  const si = await stripe.setupIntents.create({ customer: customer.id, allowed_payment_method_types: ['us_bank_account'] })
  const confirmed = await stripe.setupIntents.confirm(si.id, {
    payment_method: pm.id,
    mandate_data: { customer_acceptance: { type: 'offline' } },
  })
  return { customer, pm, si: confirmed }
}

describe('setupIntents.verifyMicrodeposits', () => {
  it('waits for microdeposits, then 32 and 45 verify the account and the setup succeeds', async () => {
    const { sim, stripe } = setup(411)
    const { pm, si } = await bankSetup(stripe)
    expect(si.status).toBe('requires_action')
    expect(si.next_action?.type).toBe('verify_with_microdeposits')
    expect((await stripe.mandates.retrieve(si.mandate as string)).status).toBe('pending')
    expect(sim.admin.events({ type: 'setup_intent.requires_action' })).toHaveLength(1)
    const verified = await stripe.setupIntents.verifyMicrodeposits(si.id, { amounts: [45, 32] })
    expect(verified).toMatchObject({ status: 'succeeded', next_action: null, payment_method: pm.id })
    expect((await stripe.mandates.retrieve(verified.mandate as string)).status).toBe('active')
    expect(sim.admin.events({ type: 'setup_intent.succeeded' })).toHaveLength(1)
    // The verified account is debited later without microdeposits.
    const pi = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: si.customer as string,
      payment_method: pm.id,
      allowed_payment_method_types: ['us_bank_account'],
      confirm: true,
    })
    expect(pi.status).toBe('processing')
  })

  it('takes the descriptor code SM11AA and refuses wrong values, changing nothing', async () => {
    const { sim, stripe } = setup(412)
    const { si } = await bankSetup(stripe)
    const before = stateOf(sim)
    const wrong = await caught(stripe.setupIntents.verifyMicrodeposits(si.id, { amounts: [32, 46] }))
    expect([wrong.statusCode, wrong.code]).toEqual([400, 'payment_method_microdeposit_verification_amounts_mismatch'])
    const code = await caught(stripe.setupIntents.verifyMicrodeposits(si.id, { descriptor_code: 'SM00AA' }))
    expect([code.code, code.param]).toEqual([
      'payment_method_microdeposit_verification_descriptor_code_mismatch',
      'descriptor_code',
    ])
    const one = await caught(stripe.setupIntents.verifyMicrodeposits(si.id, { amounts: [32] }))
    expect(one.code).toBe('payment_method_microdeposit_verification_amounts_invalid')
    expect(stateOf(sim)).toBe(before)
    expect((await stripe.setupIntents.verifyMicrodeposits(si.id, { descriptor_code: 'SM11AA' })).status).toBe('succeeded')
    const twice = await caught(stripe.setupIntents.verifyMicrodeposits(si.id, { descriptor_code: 'SM11AA' }))
    expect([twice.statusCode, twice.code]).toEqual([400, 'setup_intent_unexpected_state'])
    expect(twice.message).toContain('because it has a status of succeeded')
  })

  it('refuses a card setup intent, which never waits for microdeposits', async () => {
    const { stripe } = setup(413)
    const si = await stripe.setupIntents.create({})
    const e = await caught(stripe.setupIntents.verifyMicrodeposits(si.id, { amounts: [32, 45] }))
    expect([e.statusCode, e.code]).toEqual([400, 'setup_intent_unexpected_state'])
    const missing = await caught(stripe.setupIntents.verifyMicrodeposits('seti_missing', { amounts: [32, 45] }))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
  })
})
