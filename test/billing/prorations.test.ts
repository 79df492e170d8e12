import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { billingClient, caught, DAY, payingCustomer } from './helpers.js'

const JAN1 = Date.UTC(2026, 0, 1) / 1000
const JAN17 = Date.UTC(2026, 0, 17) / 1000
const FEB1 = Date.UTC(2026, 1, 1) / 1000
/** Jan 17 to Feb 1 is 15 of January's 31 days. */
const LEFT = 15 / 31

/** A customer with a card, on 1 × a $30 monthly seat from Jan 1 (period Jan 1 to Feb 1). */
async function seats(card = 'pm_card_visa') {
  const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
  const { stripe } = b
  const { customer } = await payingCustomer(stripe, card)
  const product = await stripe.products.create({ name: 'Seat' })
  const price = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 3000,
    recurring: { interval: 'month' },
  })
  const premium = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 5000,
    recurring: { interval: 'month' },
  })
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  const item = sub.items.data[0] as Stripe.SubscriptionItem
  return { ...b, customer, product, price, premium, sub, item }
}

/** Moves the simulator clock to `unix` seconds. */
async function at(sim: { clock: { now: number; tickAsync(ms: number): Promise<unknown> } }, unix: number) {
  await sim.clock.tickAsync(unix * 1000 - sim.clock.now)
}

const pendingOf = async (stripe: Stripe, customer: string) =>
  (await stripe.invoiceItems.list({ customer, pending: true })).data.sort((a, b) => a.amount - b.amount)

describe('prorations (official client)', () => {
  it('a mid-period quantity change creates a credit for unused time and a charge for remaining time, pending', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }] })
    const [credit, charge] = await pendingOf(stripe, customer.id)
    expect(credit).toMatchObject({
      amount: -Math.round(3000 * LEFT),
      proration: true,
      quantity: 1,
      invoice: null,
      discountable: false,
      period: { start: JAN17, end: FEB1 },
      description: 'Unused time on 1 × Seat after 17 Jan 2026',
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, subscription_item: item.id } },
    })
    expect(charge).toMatchObject({
      amount: Math.round(6000 * LEFT),
      proration: true,
      quantity: 2,
      description: 'Remaining time on 2 × Seat after 17 Jan 2026',
    })
    expect(sim.admin.events({ type: 'invoiceitem.created' })).toHaveLength(2)
  })

  it("a credit names the debit it applies to: the first invoice's line for the period", async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }] })
    const [credit] = await pendingOf(stripe, customer.id)
    const first = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(credit?.proration_details?.credited_items).toEqual({
      type: 'invoice_line_items',
      invoice_line_item_details: { invoice: first.id, invoice_line_items: [first.lines.data[0]?.id] },
    })
  })

  it('the prorations land on the next cycle invoice as proration lines', async () => {
    const { sim, stripe, sub, item } = await seats()
    await at(sim, JAN17)
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }] })
    await at(sim, FEB1 + 3600)
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      amount_paid: 6000 - Math.round(3000 * LEFT) + Math.round(6000 * LEFT),
    })
    const prorations = invoice?.lines.data.filter((l) => l.parent?.subscription_item_details?.proration === true) ?? []
    expect(prorations.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-Math.round(3000 * LEFT), Math.round(6000 * LEFT)])
    expect(prorations.every((l) => l.parent?.subscription_item_details?.subscription_item === item.id)).toBe(true)
    expect(prorations.every((l) => typeof l.parent?.subscription_item_details?.invoice_item === 'string')).toBe(true)
  })

  it('proration_behavior none creates no prorations: the next invoice bills the new quantity only', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }], proration_behavior: 'none' })
    expect(await pendingOf(stripe, customer.id)).toHaveLength(0)
    await at(sim, FEB1 + 3600)
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice?.amount_paid).toBe(6000)
  })

  it('always_invoice invoices the prorations at once and pays them', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, quantity: 2 }],
      proration_behavior: 'always_invoice',
    })
    const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string)
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_update',
      status: 'paid',
      amount_paid: Math.round(6000 * LEFT) - Math.round(3000 * LEFT),
    })
    expect(invoice.lines.data).toHaveLength(2)
    expect(await pendingOf(stripe, customer.id)).toHaveLength(0)
    expect(
      sim.admin.events({ type: 'invoice.paid' }).map((e) => (e.body.data as { object: { id: string } }).object.id),
    ).toContain(invoice.id)
  })

  it('proration_date computes the prorations as of that time', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    const jan10 = Date.UTC(2026, 0, 10) / 1000
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }], proration_date: jan10 })
    const [credit, charge] = await pendingOf(stripe, customer.id)
    expect(credit?.amount).toBe(-Math.round((3000 * 22) / 31))
    expect(charge?.amount).toBe(Math.round((6000 * 22) / 31))
    expect(charge?.period).toEqual({ start: jan10, end: FEB1 })
  })

  it('refuses a proration_date outside the current period with 400 and changes nothing', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    const refused = await caught(
      stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }], proration_date: FEB1 + 86_400 }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'proration_date' })
    expect((await stripe.subscriptionItems.retrieve(item.id)).quantity).toBe(1)
    expect(await pendingOf(stripe, customer.id)).toHaveLength(0)
    expect(sim.admin.events({ type: 'customer.subscription.updated' })).toHaveLength(1)
  })

  it('refuses an unknown proration_behavior with 400', async () => {
    const { sim, stripe, sub, item } = await seats()
    await at(sim, JAN17)
    const refused = await caught(
      stripe.subscriptions.update(sub.id, {
        items: [{ id: item.id, quantity: 2 }],
        proration_behavior: 'sometimes' as 'none',
      }),
    )
    expect(refused).toMatchObject({ statusCode: 400, param: 'proration_behavior' })
    expect((await stripe.subscriptionItems.retrieve(item.id)).quantity).toBe(1)
  })

  it('a price change credits the old price and charges the new one', async () => {
    const { sim, stripe, customer, sub, item, premium } = await seats()
    await at(sim, JAN17)
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, price: premium.id }] })
    const [credit, charge] = await pendingOf(stripe, customer.id)
    expect(credit?.amount).toBe(-Math.round(3000 * LEFT))
    expect(charge?.amount).toBe(Math.round(5000 * LEFT))
    expect(charge?.pricing?.price_details?.price).toBe(premium.id)
  })

  it('subscriptionItems.update prorates a quantity change too', async () => {
    const { sim, stripe, customer, item } = await seats()
    await at(sim, JAN17)
    await stripe.subscriptionItems.update(item.id, { quantity: 3 })
    const amounts = (await pendingOf(stripe, customer.id)).map((ii) => ii.amount)
    expect(amounts).toEqual([-Math.round(3000 * LEFT), Math.round(9000 * LEFT)])
  })

  it('adding an item mid-period charges the remaining time', async () => {
    const { sim, stripe, customer, sub, premium } = await seats()
    await at(sim, JAN17)
    const added = await stripe.subscriptionItems.create({ subscription: sub.id, price: premium.id, quantity: 1 })
    expect(added).toMatchObject({ current_period_start: JAN1, current_period_end: FEB1, quantity: 1 })
    const pending = await pendingOf(stripe, customer.id)
    expect(pending.map((ii) => ii.amount)).toEqual([Math.round(5000 * LEFT)])
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data).toHaveLength(2)
  })

  it('deleting an item mid-period credits the unused time', async () => {
    const { sim, stripe, customer, sub, premium } = await seats()
    const added = await stripe.subscriptionItems.create({ subscription: sub.id, price: premium.id, proration_behavior: 'none' })
    await at(sim, JAN17)
    await stripe.subscriptionItems.del(added.id)
    const pending = await pendingOf(stripe, customer.id)
    expect(pending.map((ii) => ii.amount)).toEqual([-Math.round(5000 * LEFT)])
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data).toHaveLength(1)
  })

  it('metered items are not prorated', async () => {
    const { sim, stripe, customer, sub, product } = await seats()
    const meter = await stripe.billing.meters.create({
      display_name: 'Calls',
      event_name: 'api_call',
      default_aggregation: { formula: 'sum' },
    })
    const metered = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 2,
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
    })
    await at(sim, JAN17)
    await stripe.subscriptions.update(sub.id, { items: [{ price: metered.id }] })
    expect(await pendingOf(stripe, customer.id)).toHaveLength(0)
  })

  it('a change during a trial makes no prorations', async () => {
    const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
    const { stripe, sim } = b
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Seat' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 3000,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], trial_period_days: 30 })
    await sim.clock.tickAsync(10 * DAY)
    await stripe.subscriptions.update(sub.id, { items: [{ id: sub.items.data[0]?.id as string, quantity: 4 }] })
    expect(await pendingOf(stripe, customer.id)).toHaveLength(0)
  })

  it('a downgrade invoiced at once is a credit: amount_due 0 and the customer balance carries it to the next invoice', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 3 }], proration_behavior: 'none' })
    await at(sim, JAN17)
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, quantity: 1 }],
      proration_behavior: 'always_invoice',
    })
    const credit = Math.round(3000 * LEFT) - Math.round(9000 * LEFT)
    const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string)
    expect(invoice).toMatchObject({ total: credit, amount_due: 0, status: 'paid', starting_balance: 0, ending_balance: credit })
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ balance: credit })
    await at(sim, FEB1 + 3600)
    const [next] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(next).toMatchObject({ total: 3000, starting_balance: credit, amount_paid: 3000 + credit, ending_balance: 0 })
  })
})

describe('upcoming invoice preview of a change (official client)', () => {
  it('shows the prorations an update at proration_date would make, and the next period at the new quantity', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    const preview = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: { items: [{ id: item.id, quantity: 2 }], proration_date: JAN17 },
    })
    const prorations = preview.lines.data.filter((l) => l.parent?.subscription_item_details?.proration === true)
    expect(prorations.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-Math.round(3000 * LEFT), Math.round(6000 * LEFT)])
    expect(preview.amount_due).toBe(6000 - Math.round(3000 * LEFT) + Math.round(6000 * LEFT))
    expect(preview.parent?.subscription_details?.subscription_proration_date).toBe(JAN17)
    expect(await pendingOf(stripe, customer.id)).toHaveLength(0)
    expect((await stripe.subscriptionItems.retrieve(item.id)).quantity).toBe(1)
  })

  it('the update with the same proration_date creates exactly the previewed prorations', async () => {
    const { sim, stripe, customer, sub, item } = await seats()
    await at(sim, JAN17)
    const preview = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: { items: [{ id: item.id, quantity: 2 }], proration_date: JAN17 },
    })
    await sim.clock.tickAsync(3 * 3600_000)
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }], proration_date: JAN17 })
    const previewed = preview.lines.data.filter((l) => l.parent?.subscription_item_details?.proration === true)
    expect((await pendingOf(stripe, customer.id)).map((ii) => ii.amount)).toEqual(
      previewed.map((l) => l.amount).sort((a, b) => a - b),
    )
  })

  it('refuses a subscription_details.proration_date outside the period with 400', async () => {
    const { sim, stripe, sub, item } = await seats()
    await at(sim, JAN17)
    const refused = await caught(
      stripe.invoices.createPreview({
        subscription: sub.id,
        subscription_details: { items: [{ id: item.id, quantity: 2 }], proration_date: JAN1 - 86_400 },
      }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'subscription_details[proration_date]' })
  })
})
