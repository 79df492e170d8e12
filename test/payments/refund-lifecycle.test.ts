import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { client, setup } from '../accounts/helpers.js'
import { caught } from './helpers.js'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const ACCEPTANCE = { customer_acceptance: { type: 'offline' as const } }

/** A settled 2500 EUR SEPA Direct Debit payment from one of the provider's test IBANs. */
async function sepaPayment(seed: number, iban = 'AT611904300234573201') {
  const { sim, stripe } = setup(seed)
  const pm = await stripe.paymentMethods.create({
    type: 'sepa_debit',
    sepa_debit: { iban },
    billing_details: { name: 'Jenny Rosen', email: 'jenny@example.com' },
  })
  const pi = await stripe.paymentIntents.create({
    amount: 2500,
    currency: 'eur',
    payment_method: pm.id,
    allowed_payment_method_types: ['sepa_debit'],
    mandate_data: ACCEPTANCE,
    confirm: true,
  })
  await sim.settle()
  await sim.clock.tickAsync(3 * MINUTE)
  const paid = await stripe.paymentIntents.retrieve(pi.id)
  expect(paid.status).toBe('succeeded')
  return { sim, stripe, pi: paid }
}

/** A 5000 USD payment by bank transfer, paid from the customer's funded cash balance. */
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

const typesOf = (sim: ReturnType<typeof setup>['sim'], id: string) =>
  sim.admin
    .events()
    .filter((e) => (e.body.data as { object?: { id?: unknown } }).object?.id === id)
    .map((e) => e.type)

describe('refunds that complete by themselves on the clock', () => {
  it('answers a bank debit payment as a py_ payment, and its refund pending until the test bank returns the money', async () => {
    const { sim, stripe, pi } = await sepaPayment(501)
    expect(pi.latest_charge).toMatch(/^py_/)
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge.id).toBe(pi.latest_charge)
    const refund = await stripe.refunds.create({ charge: charge.id, amount: 1000 })
    expect([refund.status, refund.charge, refund.amount]).toEqual(['pending', charge.id, 1000])
    expect((await stripe.charges.retrieve(charge.id)).amount_refunded).toBe(1000)
    await sim.settle()
    const done = await stripe.refunds.retrieve(refund.id)
    expect(done.status).toBe('succeeded')
    expect((await stripe.charges.retrieve(charge.id, { expand: ['refunds'] })).refunds?.data[0]?.status).toBe('succeeded')
    expect(typesOf(sim, refund.id)).toEqual(['refund.created', 'refund.updated', 'charge.refund.updated'])
    const [updated] = sim.admin.events({ type: 'charge.refund.updated' })
    expect(updated?.body.data).toMatchObject({ object: { id: refund.id, status: 'succeeded' } })
  })

  it('keeps a refund of a delayed IBAN pending until the clock passes the bank delay', async () => {
    const { sim, stripe, pi } = await sepaPayment(502, 'AT321904300235473204')
    const refund = await stripe.refunds.create({ payment_intent: pi.id })
    expect(refund.status).toBe('pending')
    // A fork carries the refund's step on its own clock.
    const fork = sim.fork()
    await fork.clock.tickAsync(3 * MINUTE)
    expect((await client(fork, sim.platform.secretKey.test).refunds.retrieve(refund.id)).status).toBe('succeeded')
    await sim.settle()
    await sim.clock.tickAsync(2 * MINUTE)
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('pending')
    await sim.clock.tickAsync(MINUTE)
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('succeeded')
  })

  it('expires a bank transfer refund nobody answered when its instructions expire, giving the money back', async () => {
    const { sim, stripe, pi } = await bankTransferPayment(503)
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 2000 })
    expect(refund.status).toBe('requires_action')
    await sim.clock.tickAsync(44 * DAY)
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('requires_action')
    await sim.clock.tickAsync(DAY)
    const ended = await stripe.refunds.retrieve(refund.id)
    expect([ended.status, ended.next_action]).toEqual(['canceled', null])
    const back = await stripe.balanceTransactions.retrieve(ended.failure_balance_transaction as string)
    expect(back).toMatchObject({ type: 'refund_failure', amount: 2000 })
    expect((await stripe.charges.retrieve(pi.latest_charge as string)).amount_refunded).toBe(0)
    expect(typesOf(sim, refund.id)).toContain('charge.refund.updated')
  })
})

describe('refunds to the cash balance and of py_ payments', () => {
  it('sends a bank transfer refund back to the cash balance with origin customer_balance', async () => {
    const { sim, stripe, customer, pi } = await bankTransferPayment(511)
    expect(pi.latest_charge).toMatch(/^py_/)
    const before = await stripe.customers.retrieveCashBalance(customer.id)
    expect(before.available).toEqual({ usd: 0 })
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 1500, origin: 'customer_balance' })
    expect([refund.status, refund.charge]).toEqual(['succeeded', pi.latest_charge])
    expect((await stripe.customers.retrieveCashBalance(customer.id)).available).toEqual({ usd: 1500 })
    const [txn] = (await stripe.customers.listCashBalanceTransactions(customer.id, { limit: 1 })).data
    expect(txn).toMatchObject({ type: 'refunded_from_payment', net_amount: 1500, refunded_from_payment: { refund: refund.id } })
    expect(sim.admin.events({ type: 'customer_cash_balance_transaction.created' }).length).toBe(3)
    // Nothing more follows on the clock.
    await sim.settle()
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('succeeded')
  })

  it('emails refund instructions to instructions_email for a refund sent to the bank', async () => {
    const { stripe, pi } = await bankTransferPayment(512)
    const refund = await stripe.refunds.create({ charge: pi.latest_charge as string, instructions_email: 'refunds@example.com' })
    expect(refund.status).toBe('requires_action')
    expect(refund.instructions_email).toBe('refunds@example.com')
    expect(refund.next_action?.display_details?.email_sent?.email_sent_to).toBe('refunds@example.com')
  })

  it('refuses origin customer_balance for a card payment with 400 naming origin, changing nothing', async () => {
    const { stripe } = setup(513)
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    const error = await caught(stripe.refunds.create({ payment_intent: pi.id, origin: 'customer_balance' }))
    expect([error.statusCode, error.type, error.param]).toEqual([400, 'StripeInvalidRequestError', 'origin'])
    expect((await stripe.charges.retrieve(pi.latest_charge as string)).amount_refunded).toBe(0)
    expect((await stripe.refunds.list()).data).toEqual([])
  })

  it("refunds a transfer's py_ payment in the connected account, from that account's balance", async () => {
    const { stripe } = setup(514)
    const account = await stripe.accounts.create({
      type: 'custom',
      country: 'US',
      capabilities: { transfers: { requested: true } },
    })
    await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_bypassPending',
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    const transfer = await stripe.transfers.create({ amount: 1000, currency: 'usd', destination: account.id })
    const payment = String(transfer.destination_payment)
    expect(payment).toMatch(/^py_/)
    const refund = await stripe.refunds.create({ charge: payment, amount: 400 }, { stripeAccount: account.id })
    expect([refund.status, refund.charge, refund.amount]).toEqual(['succeeded', payment, 400])
    const after = await stripe.charges.retrieve(payment, { expand: ['refunds'] }, { stripeAccount: account.id })
    expect([after.amount_refunded, after.refunds?.data.map((r) => r.id)]).toEqual([400, [refund.id]])
    const txn = await stripe.balanceTransactions.retrieve(
      refund.balance_transaction as string,
      {},
      {
        stripeAccount: account.id,
      },
    )
    expect([txn.type, txn.amount]).toEqual(['refund', -400])
  })
})

describe('the refund-failure test card', () => {
  async function refundFailPayment(stripe: Stripe, how: 'pm' | 'number') {
    const pm =
      how === 'pm'
        ? 'pm_card_refundFail'
        : (
            await stripe.paymentMethods.create({
              type: 'card',
              card: { number: '4000000000005126', exp_month: 12, exp_year: 2034, cvc: '123' },
            })
          ).id
    return stripe.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      payment_method: pm,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
  }

  it('succeeds the charge; its refund succeeds at first, then fails and the money comes back', async () => {
    const { sim, stripe } = setup(521)
    const pi = await refundFailPayment(stripe, 'pm')
    expect(pi.status).toBe('succeeded')
    const balance = async () => (await stripe.balance.retrieve()).available.find((b) => b.currency === 'usd')?.amount ?? 0
    const refund = await stripe.refunds.create({ payment_intent: pi.id })
    expect(refund.status).toBe('succeeded')
    const charge = pi.latest_charge as string
    expect((await stripe.charges.retrieve(charge)).refunded).toBe(true)
    const whileRefunded = await balance()
    await sim.settle()
    const failed = await stripe.refunds.retrieve(refund.id)
    expect([failed.status, failed.failure_reason]).toEqual(['failed', 'expired_or_canceled_card'])
    const back = await stripe.balanceTransactions.retrieve(failed.failure_balance_transaction as string)
    expect(back).toMatchObject({ type: 'refund_failure', amount: 3000, source: refund.id, reporting_category: 'refund_failure' })
    expect((await balance()) - whileRefunded).toBe(3000)
    const after = await stripe.charges.retrieve(charge, { expand: ['refunds'] })
    expect([after.amount_refunded, after.refunded, after.refunds?.data[0]?.status]).toEqual([0, false, 'failed'])
    expect(typesOf(sim, refund.id)).toEqual(['refund.created', 'refund.updated', 'charge.refund.updated', 'refund.failed'])
    // Refundable again, as the money is back.
    expect((await stripe.refunds.create({ charge, amount: 1000 })).amount).toBe(1000)
  })

  it('behaves the same when the card number is entered, and a plain card refund never fails', async () => {
    const { sim, stripe } = setup(522)
    const entered = await refundFailPayment(stripe, 'number')
    const refund = await stripe.refunds.create({ payment_intent: entered.id })
    const plain = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    const kept = await stripe.refunds.create({ payment_intent: plain.id })
    await sim.settle()
    await sim.clock.tickAsync(DAY)
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('failed')
    expect((await stripe.refunds.retrieve(kept.id)).status).toBe('succeeded')
    expect(sim.admin.events({ type: 'refund.failed' })).toHaveLength(1)
    // The token of the card works too.
    const other = client(sim, sim.platform.secretKey.test)
    const viaToken = await other.charges.create({ amount: 500, currency: 'usd', source: 'tok_refundFail' })
    expect(viaToken.status).toBe('succeeded')
  })
})
