import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { billingClient, caught, payingCustomer } from './helpers.js'

/**
 * Defects found by an outside-in review (issue 15): hostile input through the official client.
 * Each refusal answers in the provider's envelope and leaves the lists as they were.
 */

const DAY_S = 86_400

async function fixture() {
  const b = billingClient()
  const product = await b.stripe.products.create({ name: 'Seat' })
  return { ...b, product, P: { product: product.id, currency: 'usd' } }
}

describe('prices.create refuses terms the provider refuses, and stores nothing', () => {
  it('refuses a negative unit_amount, a negative or over-precise unit_amount_decimal, and no amount at all with 400', async () => {
    const { stripe, P } = await fixture()
    const cases: [Stripe.PriceCreateParams, string, string][] = [
      [{ ...P, unit_amount: -5 }, 'parameter_invalid', 'unit_amount'],
      [{ ...P, unit_amount_decimal: '-1.5' as never }, 'parameter_invalid', 'unit_amount_decimal'],
      [{ ...P, unit_amount_decimal: '1.1234567890123' as never }, 'parameter_invalid', 'unit_amount_decimal'],
      [{ ...P }, 'parameter_missing', 'unit_amount'],
      [
        { ...P, unit_amount: 1, recurring: { interval: 'month', trial_period_days: -1 } },
        'parameter_invalid',
        'recurring[trial_period_days]',
      ],
    ]
    for (const [params, code, param] of cases) {
      expect(await caught(stripe.prices.create(params))).toMatchObject({ statusCode: 400, code, param })
    }
    // Twelve places are allowed.
    const fine = await stripe.prices.create({ ...P, unit_amount_decimal: '1.123456789012' as never })
    expect(String(fine.unit_amount_decimal)).toBe('1.123456789012')
    expect((await stripe.prices.list()).data.map((p) => p.id)).toEqual([fine.id])
  })

  it('refuses tiers with a negative amount or both an amount and its decimal with 400', async () => {
    const { stripe, P } = await fixture()
    const tiered = (tiers: Stripe.PriceCreateParams.Tier[]) =>
      stripe.prices.create({ ...P, billing_scheme: 'tiered', tiers_mode: 'graduated', tiers, recurring: { interval: 'month' } })
    expect(await caught(tiered([{ up_to: 'inf', flat_amount: -1 }]))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'tiers[0][flat_amount]',
    })
    expect(await caught(tiered([{ up_to: 'inf', unit_amount: 1, unit_amount_decimal: '1' as never }]))).toMatchObject({
      statusCode: 400,
      code: 'parameters_exclusive',
      param: 'tiers[0][unit_amount]',
    })
    expect((await stripe.prices.list()).data).toHaveLength(0)
  })

  it('refuses a tier whose up_to is neither a positive integer nor inf with 400 parameter_invalid_integer naming the tier', async () => {
    const { stripe, P } = await fixture()
    const tiered = (upTo: unknown) =>
      stripe.prices.create({
        ...P,
        billing_scheme: 'tiered',
        tiers_mode: 'graduated',
        tiers: [
          { up_to: 10, unit_amount: 100 },
          { up_to: upTo as 'inf', unit_amount: 50 },
          { up_to: 'inf', unit_amount: 10 },
        ],
        recurring: { interval: 'month' },
      })
    for (const upTo of ['abc', 'infinity', '1.5']) {
      const refused = await caught(tiered(upTo))
      expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid_integer', param: 'tiers[1][up_to]' })
      expect(refused.message).toBe(`Invalid integer: ${upTo}`)
    }
    expect((await stripe.prices.list()).data).toHaveLength(0)
  })

  it('refuses recurring[interval_count] of 0, negative or over three years with 400 (a 0 count used to hang billing)', async () => {
    const { stripe, P } = await fixture()
    for (const [interval, count] of [
      ['day', 0],
      ['month', -1],
      ['month', 37],
      ['year', 4],
      ['week', 157],
      ['day', 1096],
    ] as const) {
      expect(
        await caught(stripe.prices.create({ ...P, unit_amount: 1, recurring: { interval, interval_count: count } })),
      ).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'recurring[interval_count]' })
    }
    const longest = await stripe.prices.create({ ...P, unit_amount: 1, recurring: { interval: 'month', interval_count: 36 } })
    expect(longest.recurring?.interval_count).toBe(36)
    expect((await stripe.prices.list()).data.map((p) => p.id)).toEqual([longest.id])
  })

  it("refuses an unknown product and another account's product with 400 resource_missing", async () => {
    const { sim, stripe } = await fixture()
    const other = sim.admin.createAccount({})
    const theirs = await stripe.products.create({ name: 'Theirs' }, { stripeAccount: other.id })
    for (const product of ['prod_nope', theirs.id]) {
      expect(await caught(stripe.prices.create({ product, currency: 'usd', unit_amount: 1 }))).toMatchObject({
        statusCode: 400,
        code: 'resource_missing',
        param: 'product',
        message: `No such product: '${product}'`,
      })
    }
    expect((await stripe.prices.list()).data).toHaveLength(0)
  })
})

describe('test clocks keep to the provider limits', () => {
  it('refuses an advance more than two years ahead when the clock has no subscriptions, leaving it ready', async () => {
    const { stripe } = billingClient()
    const start = Date.UTC(2026, 0, 1) / 1000
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start })
    const twoYears = Date.UTC(2028, 0, 1) / 1000
    expect(await caught(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: twoYears + 1 }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'frozen_time',
    })
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({ status: 'ready', frozen_time: start })
    expect((await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: twoYears })).status).toBe('advancing')
  })

  it('refuses an advance more than two intervals of the shortest subscription ahead', async () => {
    const { stripe } = billingClient()
    const start = Date.UTC(2026, 0, 1) / 1000
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start })
    const { customer } = await payingCustomer(stripe, 'pm_card_visa', { test_clock: clock.id })
    const product = await stripe.products.create({ name: 'Weekly' })
    const weekly = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 100,
      recurring: { interval: 'week' },
    })
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: weekly.id }] })
    const invoicesBefore = (await stripe.invoices.list({ customer: customer.id })).data.length
    expect(await caught(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 14 * DAY_S + 1 }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'frozen_time',
    })
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({ status: 'ready', frozen_time: start })
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(invoicesBefore)
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 14 * DAY_S })
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({
      status: 'ready',
      frozen_time: start + 14 * DAY_S,
    })
  })

  it('refuses a name over 300 characters with 400 parameter_invalid_string_too_long, creating no clock', async () => {
    const { stripe } = billingClient()
    const frozen_time = Date.UTC(2026, 0, 1) / 1000
    const refused = await caught(stripe.testHelpers.testClocks.create({ frozen_time, name: 'n'.repeat(301) }))
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid_string_too_long', param: 'name' })
    expect(refused.message).toBe('Invalid name: must be at most 300 characters (got 301).')
    expect((await stripe.testHelpers.testClocks.list()).data).toHaveLength(0)
    const longest = await stripe.testHelpers.testClocks.create({ frozen_time, name: 'n'.repeat(300) })
    expect(longest.name).toHaveLength(300)
  })

  it('refuses a frozen_time that is negative or past year 9999 (a subscription on it had no period end)', async () => {
    const { stripe } = billingClient()
    for (const frozen_time of [-5, 1e13]) {
      expect(await caught(stripe.testHelpers.testClocks.create({ frozen_time }))).toMatchObject({
        statusCode: 400,
        code: 'parameter_invalid',
        param: 'frozen_time',
      })
    }
    expect((await stripe.testHelpers.testClocks.list()).data).toHaveLength(0)
  })
})

describe('invoices keep subscriptions and customers together', () => {
  async function twoCustomers() {
    const b = await fixture()
    const { customer } = await payingCustomer(b.stripe)
    const { customer: stranger } = await payingCustomer(b.stripe)
    const price = await b.stripe.prices.create({ ...b.P, unit_amount: 1000, recurring: { interval: 'month' } })
    const sub = await b.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const strangers = await b.stripe.subscriptions.create({ customer: stranger.id, items: [{ price: price.id }] })
    return { ...b, customer, stranger, sub, strangers }
  }

  it('lists only the invoices of the subscription asked for', async () => {
    const { stripe, sub, strangers } = await twoCustomers()
    const mine = await stripe.invoices.list({ subscription: sub.id })
    expect(mine.data.map((i) => i.id)).toEqual([sub.latest_invoice])
    expect((await stripe.invoices.list({ subscription: strangers.id, limit: 1 })).data.map((i) => i.id)).toEqual([
      strangers.latest_invoice,
    ])
    expect((await stripe.invoices.list({ subscription: 'sub_nope' })).data).toEqual([])
    expect((await stripe.invoices.list({ subscription: sub.id, status: 'draft' })).data).toEqual([])
  })

  it("refuses a preview or a manual invoice naming another customer's subscription with 400, creating nothing", async () => {
    const { stripe, customer, strangers } = await twoCustomers()
    expect(await caught(stripe.invoices.createPreview({ customer: customer.id, subscription: strangers.id }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'subscription',
    })
    const before = (await stripe.invoices.list()).data.length
    expect(await caught(stripe.invoices.create({ customer: customer.id, subscription: strangers.id }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'subscription',
    })
    expect((await stripe.invoices.list()).data).toHaveLength(before)
  })

  it("refuses an invoice item on a paid invoice, on another customer's invoice or subscription with 400, creating nothing", async () => {
    const { stripe, customer, stranger, sub, strangers } = await twoCustomers()
    const item = { customer: customer.id, amount: 500, currency: 'usd' }
    expect(await caught(stripe.invoiceItems.create({ ...item, invoice: sub.latest_invoice as string }))).toMatchObject({
      statusCode: 400,
      code: 'invoice_unexpected_state',
      param: 'invoice',
    })
    const draft = await stripe.invoices.create({ customer: stranger.id })
    expect(await caught(stripe.invoiceItems.create({ ...item, invoice: draft.id }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'invoice',
    })
    expect(await caught(stripe.invoiceItems.create({ ...item, subscription: strangers.id }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid',
      param: 'subscription',
    })
    expect((await stripe.invoiceItems.list()).data).toHaveLength(0)
  })
})

describe('invoices.pay', () => {
  async function openDraft() {
    const b = await fixture()
    const { customer } = await payingCustomer(b.stripe)
    const { pm: strangers } = await payingCustomer(b.stripe)
    const draft = await b.stripe.invoices.create({ customer: customer.id })
    await b.stripe.invoiceItems.create({ customer: customer.id, invoice: draft.id, amount: 500, currency: 'usd' })
    return { ...b, customer, strangers, draft }
  }

  it("refuses another customer's payment method with 400 and charges nobody", async () => {
    const { sim, stripe, strangers, draft } = await openDraft()
    await stripe.invoices.finalizeInvoice(draft.id, { auto_advance: false })
    const charges = sim.admin.events({ type: 'charge.succeeded' }).length
    expect(await caught(stripe.invoices.pay(draft.id, { payment_method: strangers.id }))).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'payment_method',
    })
    expect(await stripe.invoices.retrieve(draft.id)).toMatchObject({ status: 'open', amount_paid: 0 })
    expect(sim.admin.events({ type: 'charge.succeeded' })).toHaveLength(charges)
  })

  it('refuses an unknown payment method on a draft with 400 and leaves it a draft', async () => {
    const { stripe, draft } = await openDraft()
    expect(await caught(stripe.invoices.pay(draft.id, { payment_method: 'pm_nope' }))).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'payment_method',
    })
    expect(await stripe.invoices.retrieve(draft.id)).toMatchObject({ status: 'draft', number: null })
  })
})

describe('deleting what billing still points at', () => {
  async function subscribedCustomer(interval: 'day' | 'month' = 'month') {
    const b = await fixture()
    const { customer } = await payingCustomer(b.stripe)
    const price = await b.stripe.prices.create({ ...b.P, unit_amount: 1000, recurring: { interval } })
    const sub = await b.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    return { ...b, customer, price, sub }
  }

  it('cancels the subscriptions of a deleted customer, which is then billed no more', async () => {
    const { sim, stripe, customer, sub } = await subscribedCustomer('day')
    expect((await stripe.customers.del(customer.id)).deleted).toBe(true)
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: 'canceled' })
    const types = sim.admin.events().map((e) => e.type)
    expect(types.slice(-2)).toEqual(['customer.subscription.deleted', 'customer.deleted'])
    await sim.clock.tickAsync(3 * 86_400_000)
    expect((await stripe.invoices.list({ subscription: sub.id })).data.map((i) => i.billing_reason)).toEqual([
      'subscription_create',
    ])
  })

  it("stops the payment retries of a deleted customer's open invoices (they kept charging it)", async () => {
    const { sim, stripe, customer, sub } = await subscribedCustomer('month')
    const declining = await stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: customer.id })
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: declining.id } })
    // Jan 31 -> Feb 28: the cycle invoice is finalized an hour later and its payment declined.
    await sim.clock.tickAsync(28 * 86_400_000 + 3_600_000 + 60_000)
    const [open] = (await stripe.invoices.list({ subscription: sub.id, status: 'open' })).data
    expect(open).toMatchObject({ attempt_count: 1, auto_advance: true })
    expect(open?.next_payment_attempt).not.toBeNull()

    await stripe.customers.del(customer.id)
    const stopped = await stripe.invoices.retrieve(open?.id as string)
    expect(stopped).toMatchObject({ status: 'open', auto_advance: false, next_payment_attempt: null, attempt_count: 1 })
    const failures = sim.admin.events({ type: 'invoice.payment_failed' }).length
    await sim.clock.tickAsync(20 * 86_400_000)
    expect(sim.admin.events({ type: 'invoice.payment_failed' })).toHaveLength(failures)
    expect((await stripe.invoices.retrieve(open?.id as string)).attempt_count).toBe(1)
  })

  it("leaves a deleted customer's cycle draft a draft: it is not finalized or charged after the grace hour", async () => {
    const { sim, stripe, customer, sub } = await subscribedCustomer('month')
    await sim.clock.tickAsync(28 * 86_400_000 + 60_000)
    const [draft] = (await stripe.invoices.list({ subscription: sub.id, status: 'draft' })).data
    expect(draft?.automatically_finalizes_at).not.toBeNull()
    await stripe.customers.del(customer.id)
    await sim.clock.tickAsync(2 * 3_600_000)
    expect(await stripe.invoices.retrieve(draft?.id as string)).toMatchObject({
      status: 'draft',
      auto_advance: false,
      automatically_finalizes_at: null,
      attempt_count: 0,
    })
    const finalized = sim.admin.events({ type: 'invoice.finalized' })
    expect(finalized.map((e) => (e.body.data as { object: { id: string } }).object.id)).not.toContain(draft?.id)
  })

  it('refuses deleting a product that has prices with 400, keeping it', async () => {
    const { stripe, product } = await subscribedCustomer()
    const refused = await caught(stripe.products.del(product.id))
    expect(refused).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' })
    expect(refused.message).toBe('This product cannot be deleted because it has one or more user-created prices.')
    expect((await stripe.products.retrieve(product.id)).id).toBe(product.id)
  })

  it("refuses deleting a paid invoice or a subscription's draft with 400; a one-off draft is deleted", async () => {
    const { sim, stripe, customer, sub } = await subscribedCustomer('day')
    const paid = sub.latest_invoice as string
    expect(await caught(stripe.invoices.del(paid))).toMatchObject({ statusCode: 400, code: 'invoice_unexpected_state' })
    await sim.clock.tickAsync(86_400_000)
    const [draft] = (await stripe.invoices.list({ subscription: sub.id, status: 'draft' })).data
    expect(await caught(stripe.invoices.del(draft?.id as string))).toMatchObject({
      statusCode: 400,
      code: 'invoice_unexpected_state',
    })
    await sim.clock.tickAsync(3_600_000)
    expect(await stripe.invoices.retrieve(draft?.id as string)).toMatchObject({ status: 'paid' })
    expect(await stripe.invoices.retrieve(paid)).toMatchObject({ status: 'paid' })
    const oneOff = await stripe.invoices.create({ customer: customer.id })
    expect((await stripe.invoices.del(oneOff.id)).deleted).toBe(true)
  })
})

describe('invoice items on a draft invoice', () => {
  it('adds the item to the draft as a line at once, so finalizing bills it (it was left out: a $0 invoice)', async () => {
    const { stripe } = await fixture()
    const { customer } = await payingCustomer(stripe)
    const draft = await stripe.invoices.create({ customer: customer.id })
    const item = await stripe.invoiceItems.create({ customer: customer.id, invoice: draft.id, amount: 300, currency: 'usd' })
    expect(item.invoice).toBe(draft.id)
    const updated = await stripe.invoices.retrieve(draft.id)
    expect(updated).toMatchObject({ amount_due: 300, total: 300, subtotal: 300 })
    expect(updated.lines.data.map((l) => [l.amount, l.parent?.invoice_item_details?.invoice_item])).toEqual([[300, item.id]])
    expect((await stripe.invoices.listLineItems(draft.id)).data).toHaveLength(1)
    const finalized = await stripe.invoices.finalizeInvoice(draft.id, { auto_advance: false })
    expect(finalized).toMatchObject({ status: 'open', amount_due: 300 })
    expect((await stripe.invoices.pay(draft.id)).amount_paid).toBe(300)
  })

  it('refuses an item in another currency than the draft with 400, adding nothing', async () => {
    const { stripe } = await fixture()
    const { customer } = await payingCustomer(stripe)
    const draft = await stripe.invoices.create({ customer: customer.id })
    expect(
      await caught(stripe.invoiceItems.create({ customer: customer.id, invoice: draft.id, amount: 300, currency: 'eur' })),
    ).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'currency' })
    expect((await stripe.invoices.retrieve(draft.id)).amount_due).toBe(0)
    expect((await stripe.invoiceItems.list()).data).toHaveLength(0)
  })

  it("refuses a pending item in another currency than the customer's subscription with 400, creating nothing (it was never billed)", async () => {
    const { sim, stripe, P } = await fixture()
    const { customer } = await payingCustomer(stripe)
    const price = await stripe.prices.create({ ...P, unit_amount: 1000, recurring: { interval: 'month' } })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const refused = await caught(stripe.invoiceItems.create({ customer: customer.id, amount: 300, currency: 'eur' }))
    expect(refused).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param: 'currency' })
    expect(refused.message).toBe(
      'You cannot combine currencies on a single customer. This customer has an active subscription or pending invoice item with currency usd; this invoice item is in eur.',
    )
    expect((await stripe.invoiceItems.list()).data).toHaveLength(0)
    expect(sim.admin.events({ type: 'invoiceitem.created' })).toHaveLength(0)
    const same = await stripe.invoiceItems.create({ customer: customer.id, amount: 300, currency: 'usd' })
    await sim.clock.tickAsync(31 * 86_400_000 + 3_600_000)
    const [cycle] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(cycle).toMatchObject({ billing_reason: 'subscription_cycle', amount_due: 1300 })
    expect((await stripe.invoiceItems.retrieve(same.id)).invoice).toBe(cycle?.id)
  })

  it("refuses a subscription in another currency than the customer's pending items with 400, creating nothing", async () => {
    const { stripe, P } = await fixture()
    const { customer } = await payingCustomer(stripe)
    await stripe.invoiceItems.create({ customer: customer.id, amount: 300, currency: 'eur' })
    const price = await stripe.prices.create({ ...P, unit_amount: 1000, recurring: { interval: 'month' } })
    const refused = await caught(stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] }))
    expect(refused).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' })
    expect(refused.message).toMatch(/^You cannot combine currencies on a single customer\..* eur; .* usd\.$/)
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toHaveLength(0)
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(0)
  })

  it('lists pending items only with pending=true, and the invoiced ones with pending=false (the filter was ignored)', async () => {
    const { stripe } = await fixture()
    const { customer } = await payingCustomer(stripe)
    const draft = await stripe.invoices.create({ customer: customer.id })
    const onDraft = await stripe.invoiceItems.create({ customer: customer.id, invoice: draft.id, amount: 100, currency: 'usd' })
    const pending = await stripe.invoiceItems.create({ customer: customer.id, amount: 200, currency: 'usd' })
    expect((await stripe.invoiceItems.list({ pending: true })).data.map((i) => i.id)).toEqual([pending.id])
    expect((await stripe.invoiceItems.list({ pending: false, customer: customer.id })).data.map((i) => i.id)).toEqual([
      onDraft.id,
    ])
    expect((await stripe.invoiceItems.list({ pending: true, customer: 'cus_other' })).data).toEqual([])
  })
})

describe('sim.admin.billedUsage', () => {
  it('throws a TypeError naming an unknown account, meter or mode (it answered no usage at all)', async () => {
    const { sim, stripe } = billingClient()
    const customer = await stripe.customers.create({})
    expect(() => sim.admin.billedUsage({ customer: customer.id, account: 'acct_nope' })).toThrow(
      new TypeError("admin.billedUsage: no such account 'acct_nope'"),
    )
    expect(() => sim.admin.billedUsage({ customer: customer.id, meter: 'mtr_nope' })).toThrow(/no such meter 'mtr_nope'/)
    expect(() => sim.admin.billedUsage({ customer: customer.id, mode: 'sandbox' as never })).toThrow(TypeError)
    expect(sim.admin.billedUsage({ customer: customer.id, account: sim.platform.id, mode: 'live' }).meters).toEqual([])
  })
})
