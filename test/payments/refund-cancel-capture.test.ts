import { describe, expect, it } from 'vitest'
import { setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

const DAY_MS = 24 * 60 * 60_000

/** A 5000 USD payment by bank transfer, funded from the customer's cash balance. */
async function bankTransferPayment(seed: number) {
  const { sim, stripe } = setup(seed)
  const customer = await stripe.customers.create({ email: 'cash@example.com' })
  const pm = await stripe.paymentMethods.create({ type: 'customer_balance' })
  const pi = await stripe.paymentIntents.create({
    amount: 5000,
    currency: 'usd',
    customer: customer.id,
    payment_method: pm.id,
    allowed_payment_method_types: ['customer_balance'],
    confirm: true,
  })
  await stripe.testHelpers.customers.fundCashBalance(customer.id, { amount: 5000, currency: 'usd' })
  const paid = await stripe.paymentIntents.applyCustomerBalance(pi.id)
  return { sim, stripe, customer, pi: paid }
}

describe('refunds that wait for the customer', () => {
  it('a bank transfer refund waits for bank details, and canceling it gives the money back', async () => {
    const { sim, stripe, pi } = await bankTransferPayment(441)
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 2000, instructions_email: 'me@example.com' })
    expect(refund.status).toBe('requires_action')
    expect(refund.next_action?.type).toBe('display_details')
    expect(refund.next_action?.display_details?.email_sent?.email_sent_to).toBe('me@example.com')
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge.amount_refunded).toBe(2000)
    // Nothing more than what is left can be refunded while it waits.
    const over = await caught(stripe.refunds.create({ payment_intent: pi.id, amount: 3001 }))
    expect(over.code).toBe('amount_too_large')
    const canceled = await stripe.refunds.cancel(refund.id)
    expect([canceled.status, canceled.next_action]).toEqual(['canceled', null])
    const back = await stripe.balanceTransactions.retrieve(canceled.failure_balance_transaction as string)
    expect(back).toMatchObject({ type: 'refund_failure', amount: 2000, source: refund.id })
    const after = await stripe.charges.retrieve(pi.latest_charge as string, { expand: ['refunds'] })
    expect([after.amount_refunded, after.refunded]).toEqual([0, false])
    expect(after.refunds?.data[0]?.status).toBe('canceled')
    expect(sim.admin.events({ type: 'refund.updated' }).length).toBeGreaterThan(0)
  })

  it('expires a waiting refund through the test helper; a settled refund refuses both, changing nothing', async () => {
    const { sim, stripe, pi } = await bankTransferPayment(442)
    const waiting = await stripe.refunds.create({ payment_intent: pi.id, amount: 1000 })
    expect(waiting.next_action?.display_details?.email_sent?.email_sent_to).toBe('cash@example.com')
    const expired = await stripe.testHelpers.refunds.expire(waiting.id)
    expect(expired.status).toBe('canceled')
    const toCash = await stripe.refunds.create({ payment_intent: pi.id, amount: 1000, origin: 'customer_balance' })
    expect(toCash.status).toBe('succeeded')
    const before = stateOf(sim)
    const again = await caught(stripe.testHelpers.refunds.expire(waiting.id))
    expect([again.statusCode, again.code]).toEqual([400, 'refund_not_expirable'])
    const settled = await caught(stripe.refunds.cancel(toCash.id))
    expect([settled.statusCode, settled.code]).toEqual([400, 'refund_not_cancelable'])
    expect(stateOf(sim)).toBe(before)
    const missing = await caught(stripe.testHelpers.refunds.expire('re_missing'))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
  })
})

describe('partial capture', () => {
  it('releases the uncaptured remainder as a refund; only the captured amount can be refunded', async () => {
    const { stripe } = setup(443)
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
    })
    const captured = await stripe.paymentIntents.capture(pi.id, { amount_to_capture: 600 })
    expect([captured.status, captured.amount_received]).toEqual(['succeeded', 600])
    const charge = await stripe.charges.retrieve(captured.latest_charge as string, { expand: ['refunds'] })
    expect([charge.amount, charge.amount_captured, charge.amount_refunded, charge.refunded]).toEqual([1000, 600, 400, false])
    expect(charge.refunds?.data.map((r) => r.amount)).toEqual([400])
    const over = await caught(stripe.refunds.create({ payment_intent: pi.id, amount: 601 }))
    expect(over.code).toBe('amount_too_large')
    await stripe.refunds.create({ payment_intent: pi.id })
    const done = await stripe.charges.retrieve(charge.id)
    expect([done.amount_refunded, done.refunded]).toEqual([1000, true])
  })

  it('releases the remainder of a charge captured in part', async () => {
    const { stripe } = setup(444)
    const charge = await stripe.charges.create({ amount: 2000, currency: 'usd', source: 'tok_visa', capture: false })
    const captured = await stripe.charges.capture(charge.id, { amount: 1500 })
    expect([captured.amount_captured, captured.amount_refunded, captured.refunded]).toEqual([1500, 500, false])
  })
})

describe('uncaptured payment intents', () => {
  it('are canceled seven days after authorisation, the hold released', async () => {
    const { sim, stripe } = setup(445)
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
    })
    expect(pi.status).toBe('requires_capture')
    await sim.clock.tickAsync(7 * DAY_MS - 1000)
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_capture')
    await sim.clock.tickAsync(1000)
    const expired = await stripe.paymentIntents.retrieve(pi.id)
    expect([expired.status, expired.cancellation_reason]).toEqual(['canceled', 'automatic'])
    const charge = await stripe.charges.retrieve(pi.latest_charge as string, { expand: ['refunds'] })
    expect([charge.captured, charge.refunded]).toEqual([false, true])
    expect(charge.refunds?.data[0]?.reason).toBe('expired_uncaptured_charge')
    const [event] = sim.admin.events({ type: 'payment_intent.canceled' })
    expect((event?.body.data as { object: { cancellation_reason: string } } | undefined)?.object.cancellation_reason).toBe(
      'automatic',
    )
  })

  it('a captured intent is left alone', async () => {
    const { sim, stripe } = setup(446)
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
    })
    await stripe.paymentIntents.capture(pi.id)
    await sim.clock.tickAsync(8 * DAY_MS)
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded')
    expect(sim.admin.events({ type: 'payment_intent.canceled' })).toHaveLength(0)
  })
})
