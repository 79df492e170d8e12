import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { billingClient, caught, DAY, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

/** A monthly $20 subscription collected by sending invoices due in 7 days. */
async function setUp(card = 'pm_card_visa') {
  const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
  const { stripe } = b
  const { customer, pm } = await payingCustomer(stripe, card)
  const { price } = await monthlyPrice(stripe, 2000, 'Plan')
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    collection_method: 'send_invoice',
    days_until_due: 7,
  })
  return { ...b, customer, pm, price, sub }
}

const JAN1 = Date.UTC(2026, 0, 1) / 1000
const FEB1 = Date.UTC(2026, 1, 1) / 1000

describe('collection_method send_invoice (official client)', () => {
  it('starts active with its first invoice finalized, due days_until_due later, sent and not charged', async () => {
    const { sim, stripe, sub } = await setUp()
    expect(sub).toMatchObject({ status: 'active', collection_method: 'send_invoice', days_until_due: 7 })
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(invoice).toMatchObject({
      status: 'open',
      collection_method: 'send_invoice',
      due_date: JAN1 + 7 * 86_400,
      amount_due: 2000,
      attempted: false,
    })
    expect(sim.admin.events({ type: 'invoice.sent' })).toHaveLength(1)
    expect(sim.admin.events({ type: 'payment_intent.created' })).toHaveLength(0)
  })

  it('invoices.pay pays it with the default payment method', async () => {
    const { stripe, sub } = await setUp()
    const paid = await stripe.invoices.pay(sub.latest_invoice as string)
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 2000 })
  })

  it('an unpaid invoice is overdue at its due date (invoice.overdue) and the subscription turns past_due', async () => {
    const { sim, stripe, sub } = await setUp()
    await sim.clock.tickAsync(7 * DAY - 1000)
    expect(sim.admin.events({ type: 'invoice.overdue' })).toHaveLength(0)
    await sim.clock.tickAsync(1000)
    expect(sim.admin.events({ type: 'invoice.overdue' })).toHaveLength(1)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due')
  })

  it('a paid invoice is never overdue', async () => {
    const { sim, stripe, sub } = await setUp()
    await stripe.invoices.pay(sub.latest_invoice as string)
    await sim.clock.tickAsync(8 * DAY)
    expect(sim.admin.events({ type: 'invoice.overdue' })).toHaveLength(0)
  })

  it('the cycle invoice is finalized after the grace hour, sent and due 7 days later, not charged', async () => {
    const { sim, stripe, sub } = await setUp()
    await stripe.invoices.pay(sub.latest_invoice as string)
    await sim.clock.tickAsync(FEB1 * 1000 + HOUR - sim.clock.now)
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'open',
      due_date: FEB1 + 3600 + 7 * 86_400,
      collection_method: 'send_invoice',
    })
    expect(sim.admin.events({ type: 'invoice.sent' })).toHaveLength(2)
  })

  it('refuses send_invoice without days_until_due with 400 and creates nothing', async () => {
    const { stripe, customer, price } = await setUp()
    const refused = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], collection_method: 'send_invoice' }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'days_until_due' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(1)
  })

  it('refuses days_until_due on a charge_automatically subscription with 400', async () => {
    const { stripe, customer, price } = await setUp()
    const refused = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], days_until_due: 3 }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'days_until_due' })
  })
})

describe('invoices.sendInvoice and invoices.markUncollectible (official client)', () => {
  it('sendInvoice sends an open send_invoice invoice again (invoice.sent)', async () => {
    const { sim, stripe, sub } = await setUp()
    const sent = await stripe.invoices.sendInvoice(sub.latest_invoice as string)
    expect(sent.status).toBe('open')
    expect(sim.admin.events({ type: 'invoice.sent' })).toHaveLength(2)
  })

  it('sendInvoice finalizes a manual send_invoice draft, due days_until_due after creation', async () => {
    const { sim, stripe, customer } = await setUp()
    await stripe.invoiceItems.create({ customer: customer.id, amount: 700, currency: 'usd' })
    const draft = await stripe.invoices.create({
      customer: customer.id,
      collection_method: 'send_invoice',
      days_until_due: 30,
      pending_invoice_items_behavior: 'include',
    })
    expect(draft).toMatchObject({ status: 'draft', due_date: JAN1 + 30 * 86_400 })
    const sent = await stripe.invoices.sendInvoice(draft.id)
    expect(sent).toMatchObject({ status: 'open', amount_due: 700, due_date: JAN1 + 30 * 86_400 })
    expect(sim.admin.events({ type: 'invoice.sent' }).at(-1)?.body.data).toMatchObject({ object: { id: draft.id } })
  })

  it('sendInvoice refuses an invoice charged automatically with 400 and changes nothing', async () => {
    const { sim, stripe, customer } = await setUp()
    const draft = await stripe.invoices.create({ customer: customer.id })
    const refused = await caught(stripe.invoices.sendInvoice(draft.id))
    expect(refused).toMatchObject({
      statusCode: 400,
      code: 'invoice_not_send_invoice',
      message: "You can only manually send an invoice if its collection method is 'send_invoice'.",
    })
    expect((await stripe.invoices.retrieve(draft.id)).status).toBe('draft')
    expect(sim.admin.events({ type: 'invoice.sent' })).toHaveLength(1)
  })

  it('sendInvoice refuses a paid invoice with 400', async () => {
    const { stripe, sub } = await setUp()
    await stripe.invoices.pay(sub.latest_invoice as string)
    const refused = await caught(stripe.invoices.sendInvoice(sub.latest_invoice as string))
    expect(refused).toMatchObject({ statusCode: 400, code: 'invoice_unexpected_state' })
  })

  it('refuses send_invoice on a manual invoice without days_until_due or due_date with 400', async () => {
    const { stripe, customer } = await setUp()
    const refused = await caught(stripe.invoices.create({ customer: customer.id, collection_method: 'send_invoice' }))
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'days_until_due' })
  })

  it('markUncollectible turns an open invoice uncollectible (invoice.marked_uncollectible); it is no longer overdue', async () => {
    const { sim, stripe, sub } = await setUp()
    const marked = await stripe.invoices.markUncollectible(sub.latest_invoice as string)
    expect(marked.status).toBe('uncollectible')
    expect(marked.status_transitions.marked_uncollectible_at).toBe(JAN1)
    expect(sim.admin.events({ type: 'invoice.marked_uncollectible' })).toHaveLength(1)
    await sim.clock.tickAsync(8 * DAY)
    expect(sim.admin.events({ type: 'invoice.overdue' })).toHaveLength(0)
  })

  it('an uncollectible invoice can still be paid', async () => {
    const { stripe, sub } = await setUp()
    await stripe.invoices.markUncollectible(sub.latest_invoice as string)
    expect((await stripe.invoices.pay(sub.latest_invoice as string)).status).toBe('paid')
  })

  it('markUncollectible refuses a draft with 400 and changes nothing', async () => {
    const { stripe, customer } = await setUp()
    const draft = await stripe.invoices.create({ customer: customer.id })
    const refused = await caught(stripe.invoices.markUncollectible(draft.id))
    expect(refused).toMatchObject({ statusCode: 400, code: 'invoice_unexpected_state' })
    expect((await stripe.invoices.retrieve(draft.id)).status).toBe('draft')
  })

  it('a declined automatic invoice marked uncollectible is no longer retried', async () => {
    const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
    const { stripe, sim } = b
    const { customer } = await payingCustomer(stripe, 'pm_card_chargeDeclined')
    const product = await stripe.products.create({ name: 'Plan' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 2000,
      recurring: { interval: 'month' },
    })
    const visa = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: visa.id,
    })
    await stripe.subscriptions.update(sub.id, { default_payment_method: '' })
    await sim.clock.tickAsync(FEB1 * 1000 + HOUR - sim.clock.now)
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice?.next_payment_attempt).not.toBeNull()
    const marked = await stripe.invoices.markUncollectible(invoice?.id as string)
    expect(marked.next_payment_attempt).toBeNull()
    await sim.clock.tickAsync(20 * DAY)
    expect(sim.admin.events({ type: 'invoice.payment_failed' })).toHaveLength(1)
  })
})

describe('invoice.overdue across snapshots', () => {
  it('a snapshot (JSON and fork) taken while a sent invoice awaits its due date makes it overdue at the same instant, with the same trace', async () => {
    const { sim } = await setUp()
    await sim.clock.tickAsync(DAY)
    await sim.settle()
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    const forked = sim.fork()
    const counts: number[] = []
    for (const s of [sim, loaded, forked]) {
      await s.clock.tickAsync(6 * DAY)
      counts.push(s.admin.events({ type: 'invoice.overdue' }).length)
    }
    expect(counts).toEqual([1, 1, 1])
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })
})
