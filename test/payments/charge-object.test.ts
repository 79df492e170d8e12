import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { caught, officialClient } from './helpers.js'

/**
 * Fields of the client's `Charge` the simulator leaves out, and why: `presentment_details` exists
 * only for payments in another presentment currency, `transfer` only for destination charges,
 * `refunds` is answered only when expanded (since 2022-11-15).
 */
const ABSENT = new Set(['presentment_details', 'refunds', 'transfer'])

/** Every field the pinned client's `Charge` declares (node_modules/stripe: resources/Charges.d.ts). */
const CHARGE_FIELDS = [
  'id',
  'object',
  'amount',
  'amount_captured',
  'amount_refunded',
  'application',
  'application_fee',
  'application_fee_amount',
  'authorization_code',
  'balance_transaction',
  'billing_details',
  'calculated_statement_descriptor',
  'captured',
  'created',
  'currency',
  'customer',
  'description',
  'disputed',
  'failure_balance_transaction',
  'failure_code',
  'failure_message',
  'fraud_details',
  'livemode',
  'metadata',
  'on_behalf_of',
  'outcome',
  'paid',
  'payment_intent',
  'payment_method',
  'payment_method_details',
  'presentment_details',
  'radar_options',
  'receipt_email',
  'receipt_number',
  'receipt_url',
  'refunded',
  'refunds',
  'review',
  'shipping',
  'source',
  'source_transfer',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'status',
  'transfer',
  'transfer_data',
  'transfer_group',
]

async function paid(stripe: Stripe, extra: Partial<Stripe.PaymentIntentCreateParams> = {}) {
  return stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, ...extra })
}

describe('the charge object', () => {
  it('carries every declared field of a succeeded charge, with values that follow from the payment', async () => {
    const { stripe } = officialClient(51)
    const pi = await paid(stripe, { metadata: { order: '7' }, description: 'order 7' })
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    for (const f of CHARGE_FIELDS) if (!ABSENT.has(f)) expect(charge, f).toHaveProperty(f)
    expect(charge).toMatchObject({
      amount: 2000,
      amount_captured: 2000,
      amount_refunded: 0,
      captured: true,
      paid: true,
      refunded: false,
      status: 'succeeded',
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      description: 'order 7',
      metadata: { order: '7' },
      radar_options: {},
      outcome: { type: 'authorized', network_status: 'approved_by_network', reason: null },
    })
    expect(charge).not.toHaveProperty('refunds')
    const expanded = await stripe.charges.retrieve(charge.id, { expand: ['refunds'] })
    expect(expanded.refunds).toEqual({
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/charges/${charge.id}/refunds`,
    })
    expect(charge.balance_transaction).toMatch(/^txn_/)
    expect(charge.payment_method_details?.card).toMatchObject({ last4: '4242', brand: 'visa', three_d_secure: null })
  })

  it('lists its refunds, newest first, as they are', async () => {
    const { stripe } = officialClient(52)
    const pi = await paid(stripe)
    const first = await stripe.refunds.create({ payment_intent: pi.id, amount: 500 })
    const second = await stripe.refunds.create({ payment_intent: pi.id, amount: 1500, metadata: { why: 'rest' } })
    const charge = await stripe.charges.retrieve(pi.latest_charge as string, { expand: ['refunds'] })
    expect(charge).toMatchObject({ amount_refunded: 2000, refunded: true })
    expect(charge.refunds?.data.map((r) => r.id)).toEqual([second.id, first.id])
    expect((charge.refunds as { total_count?: number } | null)?.total_count).toBe(2)
    expect(charge.refunds?.data[0]).toEqual(await stripe.refunds.retrieve(second.id))
    await stripe.refunds.update(first.id, { metadata: { note: 'late' } })
    const again = await stripe.charges.retrieve(charge.id, { expand: ['refunds'] })
    expect(again.refunds?.data[1]?.metadata).toEqual({ note: 'late' })
  })

  it('records a decline in failure_code, outcome and paid, with no balance transaction', async () => {
    const { sim, stripe } = officialClient(53)
    const err = await caught(paid(stripe, { payment_method: 'pm_card_chargeDeclinedInsufficientFunds' }))
    expect(err.code).toBe('card_declined')
    const [charge] = (await stripe.charges.list({ limit: 1 })).data
    expect(charge).toMatchObject({
      status: 'failed',
      paid: false,
      captured: false,
      amount_captured: 0,
      balance_transaction: null,
      failure_code: 'card_declined',
      failure_message: 'Your card has insufficient funds.',
      outcome: { type: 'issuer_declined', reason: 'insufficient_funds', network_status: 'declined_by_network' },
    })
    expect(charge).not.toHaveProperty('authorization_code')
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
  })

  it('shows the authenticated 3-D Secure result of a payment the customer authenticated', async () => {
    const { sim, stripe } = officialClient(54)
    const pi = await paid(stripe, { payment_method: 'pm_card_threeDSecure2Required' })
    expect(pi.status).toBe('requires_action')
    sim.admin.completeAuthentication(pi.id, { outcome: 'succeed' })
    const done = await stripe.paymentIntents.retrieve(pi.id)
    const charge = await stripe.charges.retrieve(done.latest_charge as string)
    expect(charge.payment_method_details?.card?.three_d_secure).toMatchObject({ result: 'authenticated', version: '2.2.0' })
  })

  it('is captured through charges.capture for a manual intent, which then succeeds', async () => {
    const { stripe } = officialClient(55)
    const pi = await paid(stripe, { capture_method: 'manual' })
    const before = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(before).toMatchObject({ captured: false, amount_captured: 0, balance_transaction: null, paid: true })
    const captured = await stripe.charges.capture(before.id, { amount: 1500 })
    expect(captured).toMatchObject({ captured: true, amount_captured: 1500 })
    expect(captured.balance_transaction).toMatch(/^txn_/)
    expect(await stripe.paymentIntents.retrieve(pi.id)).toMatchObject({ status: 'succeeded', amount_received: 1500 })
    const again = await caught(stripe.charges.capture(before.id))
    expect([again.statusCode, again.code]).toEqual([400, 'charge_already_captured'])
  })

  it('is searchable and updatable through the engine, answering charge.updated', async () => {
    const { sim, stripe } = officialClient(56)
    const pi = await paid(stripe, { metadata: { order: '9' } })
    const found = await stripe.charges.search({ query: "metadata['order']:'9'" })
    expect(found.data.map((c) => c.id)).toEqual([pi.latest_charge])
    const up = await stripe.charges.update(pi.latest_charge as string, { description: 'refiled' })
    expect(up.description).toBe('refiled')
    expect(sim.admin.events({ type: 'charge.updated' })).toHaveLength(1)
  })

  it('is the object the events carry and the list answers: one stored object', async () => {
    const { sim, stripe } = officialClient(57)
    const pi = await paid(stripe)
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    const [succeeded] = sim.admin.events({ type: 'charge.succeeded' })
    expect((succeeded?.body.data as { object?: unknown } | undefined)?.object).toEqual(JSON.parse(JSON.stringify(charge)))
    expect((await stripe.charges.list({ payment_intent: pi.id })).data).toEqual([charge])
  })
})

describe('payment methods', () => {
  it('are listed and retrieved under their customer, and updated with payment_method.updated', async () => {
    const { sim, stripe } = officialClient(58)
    const cus = await stripe.customers.create({ email: 'a@example.com' })
    const pm = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: cus.id })
    expect(pm).toMatchObject({ customer: cus.id, type: 'card', card: { brand: 'mastercard', last4: '4444' } })
    expect((await stripe.customers.listPaymentMethods(cus.id)).data.map((p) => p.id)).toEqual([pm.id])
    expect(await stripe.customers.retrievePaymentMethod(cus.id, pm.id)).toEqual(pm)
    const up = await stripe.paymentMethods.update(pm.id, { metadata: { k: 'v' } })
    expect(up.metadata).toEqual({ k: 'v' })
    expect(sim.admin.events({ type: 'payment_method.updated' })).toHaveLength(1)
    const other = await stripe.customers.create({ email: 'b@example.com' })
    const err = await caught(stripe.customers.retrievePaymentMethod(other.id, pm.id))
    expect([err.statusCode, err.code]).toEqual([404, 'resource_missing'])
  })

  it('refuses attach without a customer with 400 parameter_missing and makes nothing', async () => {
    const { sim, stripe } = officialClient(59)
    const err = await caught(stripe.paymentMethods.attach('pm_card_visa', {} as Stripe.PaymentMethodAttachParams))
    expect([err.statusCode, err.code, err.param]).toEqual([400, 'parameter_missing', 'customer'])
    expect(sim.service.paymentMethods.list({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
  })
})

describe('the payment intent and payment method objects', () => {
  /** Optional fields the provider shows only when set: hooks, order references, a presentment currency. */
  const INTENT_ABSENT = new Set(['hooks', 'payment_details', 'presentment_details'])
  const INTENT_FIELDS = [
    'id',
    'object',
    'allowed_payment_method_types',
    'amount',
    'amount_capturable',
    'amount_details',
    'amount_received',
    'application',
    'application_fee_amount',
    'automatic_payment_methods',
    'canceled_at',
    'cancellation_reason',
    'capture_method',
    'client_secret',
    'confirmation_method',
    'created',
    'currency',
    'customer',
    'customer_account',
    'description',
    'excluded_payment_method_types',
    'hooks',
    'last_payment_error',
    'latest_charge',
    'livemode',
    'managed_payments',
    'metadata',
    'next_action',
    'on_behalf_of',
    'payment_details',
    'payment_method',
    'payment_method_configuration_details',
    'payment_method_options',
    'payment_method_types',
    'payment_record',
    'presentment_details',
    'processing',
    'receipt_email',
    'review',
    'setup_future_usage',
    'shipping',
    'source',
    'statement_descriptor',
    'statement_descriptor_suffix',
    'status',
    'transfer_data',
    'transfer_group',
  ]
  const METHOD_FIELDS = [
    'id',
    'object',
    'allow_redisplay',
    'billing_details',
    'card',
    'created',
    'customer',
    'customer_account',
    'livemode',
    'metadata',
    'type',
  ]

  it('carry every field the client declares for a card payment, with values that follow from it', async () => {
    const { stripe } = officialClient(60)
    const cus = await stripe.customers.create({ email: 'a@example.com' })
    const pi = await paid(stripe, { customer: cus.id, setup_future_usage: 'off_session' })
    for (const f of INTENT_FIELDS) if (!INTENT_ABSENT.has(f)) expect(pi, f).toHaveProperty(f)
    expect(pi).toMatchObject({
      status: 'succeeded',
      amount_received: 2000,
      amount_capturable: 0,
      customer: cus.id,
      payment_method_types: ['card'],
      next_action: null,
      last_payment_error: null,
    })
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`))
    const pm = await stripe.paymentMethods.retrieve(pi.payment_method as string)
    for (const f of METHOD_FIELDS) expect(pm, f).toHaveProperty(f)
    expect(pm).toMatchObject({ type: 'card', customer: cus.id, card: { brand: 'visa', last4: '4242', funding: 'credit' } })
    const debit = await stripe.paymentMethods.attach('pm_card_visa_debit', { customer: cus.id })
    expect(debit.card?.funding).toBe('debit')
  })
})

describe('canceling an authorised payment intent', () => {
  it('releases the authorisation: the uncaptured charge is refunded whole and no money moves', async () => {
    const { sim, stripe } = officialClient(61)
    const pi = await paid(stripe, { capture_method: 'manual' })
    const canceled = await stripe.paymentIntents.cancel(pi.id)
    expect(canceled).toMatchObject({ status: 'canceled', amount_capturable: 0 })
    const charge = await stripe.charges.retrieve(pi.latest_charge as string, { expand: ['refunds'] })
    expect(charge).toMatchObject({ captured: false, refunded: true, amount_refunded: 2000, balance_transaction: null })
    expect(charge.refunds?.data).toHaveLength(1)
    expect(charge.refunds?.data[0]).toMatchObject({ amount: 2000, balance_transaction: null, payment_intent: pi.id })
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types.slice(-3)).toEqual(['charge.refunded', 'refund.created', 'payment_intent.canceled'])
    const err = await caught(stripe.refunds.create({ charge: charge.id }))
    expect(err.statusCode).toBe(400)
  })
})
