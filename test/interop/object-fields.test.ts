import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

// Non-optional fields (nullable or not) of the official client's v23 types, which code written
// against the real service may read: they must be present, even when null.
const PAYMENT_INTENT = [
  'allowed_payment_method_types',
  'customer_account',
  'excluded_payment_method_types',
  'managed_payments',
  'payment_method_configuration_details',
  'payment_record',
  'source',
]
const CHARGE = [
  'application',
  'application_fee',
  'application_fee_amount',
  'calculated_statement_descriptor',
  'failure_balance_transaction',
  'fraud_details',
  'on_behalf_of',
  'receipt_email',
  'receipt_number',
  'receipt_url',
  'review',
  'shipping',
  'source',
  'source_transfer',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
]
const CHARGE_CARD = ['amount_authorized', 'network', 'three_d_secure', 'extended_authorization', 'overcapture']

describe('object fields the official client declares', () => {
  it('returns them on payment intents, charges and payment methods', async () => {
    const sim = createSimulator({ seed: 41, headerPrefix: 'Stripe', limits: false })
    const stripe = new Stripe(sim.platform.secretKey.test, {
      httpClient: Stripe.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })
    const pi = await stripe.paymentIntents.create({
      amount: 1200,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    for (const f of PAYMENT_INTENT) expect(pi, f).toHaveProperty(f)
    expect(pi.payment_method_options?.card).toMatchObject({ installments: null, mandate_options: null, network: null })
    const charge = await stripe.charges.retrieve(String(pi.latest_charge))
    for (const f of CHARGE) expect(charge, f).toHaveProperty(f)
    for (const f of CHARGE_CARD) expect(charge.payment_method_details?.card, f).toHaveProperty(f)
    expect(charge.payment_method_details?.card).not.toHaveProperty('display_brand')
    expect(charge.outcome).toMatchObject({ advice_code: null, network_advice_code: null, network_decline_code: null })
    const pm = await stripe.paymentMethods.retrieve(String(pi.payment_method))
    expect(pm).toHaveProperty('customer_account', null)
    expect(pm.card).toMatchObject({ generated_from: null, regulated_status: 'unregulated' })
    const product = await stripe.products.create({ name: 'Widget' })
    expect(product).toHaveProperty('tax_details', null)
  })
})
