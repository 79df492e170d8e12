import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { pinned } from './helpers.js'

const OLD = '2022-08-01'

/** A v1 webhook endpoint of the app pinned to the client's version, whose deliveries the official client verifies. */
async function receiver(sim: Simulator, stripe: Stripe, url = 'https://app.test/webhook') {
  const endpoint = await stripe.webhookEndpoints.create({ url, enabled_events: ['*'] })
  const events: Stripe.Event[] = []
  sim.receivers.mount(url, async (req) => {
    const raw = await req.text()
    const signature = req.headers.get('Stripe-Signature') ?? ''
    events.push(stripe.webhooks.constructEvent(raw, signature, endpoint.secret ?? '', 300, undefined, sim.clock.now))
    return new Response('{}', { status: 200 })
  })
  return events
}

async function plan(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Basic' })
  return stripe.prices.create({ product: product.id, unit_amount: 500, currency: 'usd', recurring: { interval: 'month' } })
}

/** The `invoice` field the current client's types no longer declare on an intent or a charge. */
const invoiceField = (o: unknown): unknown => (o as { invoice?: unknown }).invoice
type OldInvoice = { id: string; payment_intent: string | { id: string; client_secret: string } | null }

describe(`payment_intent.invoice at ${OLD} (before the field moved to the invoice's payments)`, () => {
  it("names a default_incomplete subscription's first invoice, expands it, and stays after the intent pays it (invoice.paid webhook)", async () => {
    const { sim, stripe } = pinned(OLD)
    const events = await receiver(sim, stripe)
    const price = await plan(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.test' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.payment_intent'],
    })
    const invoice = sub.latest_invoice as unknown as OldInvoice
    const expanded = invoice.payment_intent as { id: string; client_secret: string; invoice: unknown }
    expect(expanded.invoice).toBe(invoice.id)
    const open = await stripe.paymentIntents.retrieve(expanded.id)
    expect(open.status).toBe('requires_payment_method')
    expect(invoiceField(open)).toBe(invoice.id)
    const withInvoice = await stripe.paymentIntents.retrieve(expanded.id, { expand: ['invoice'] })
    expect(invoiceField(withInvoice)).toMatchObject({ id: invoice.id, object: 'invoice', payment_intent: expanded.id })

    sim.customer.confirmPaymentIntent(expanded.client_secret, { paymentMethod: 'pm_card_visa' })
    await sim.settle()
    const paid = events.find((e) => e.type === 'invoice.paid')
    expect(paid?.api_version).toBe(OLD)
    const paidInvoice = paid?.data.object as unknown as OldInvoice
    // The handler of the provider's 2022 sample: `stripe.paymentIntents.retrieve(invoice.payment_intent)`.
    const intent = await stripe.paymentIntents.retrieve(String(paidInvoice.payment_intent))
    expect(intent.status).toBe('succeeded')
    expect(invoiceField(intent)).toBe(invoice.id)
    const succeeded = events.find((e) => e.type === 'payment_intent.succeeded')
    expect(invoiceField(succeeded?.data.object ?? {})).toBe(invoice.id)
    // Before 2022-11-15 an intent listed its charges rather than naming its latest one.
    const charges = (intent as unknown as { charges: { data: Array<{ id: string; invoice: unknown }> } }).charges.data
    expect(charges[0]?.invoice).toBe(invoice.id)
    expect(invoiceField(await stripe.charges.retrieve(String(charges[0]?.id)))).toBe(invoice.id)
  })

  it('names a manual invoice paid with invoices.pay', async () => {
    const { stripe } = pinned(OLD)
    const customer = await stripe.customers.create({
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    await stripe.invoiceItems.create({ customer: customer.id, amount: 1200, currency: 'usd' })
    const draft = await stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' })
    const paid = (await stripe.invoices.pay(draft.id)) as unknown as OldInvoice & { status: string }
    expect(paid.status).toBe('paid')
    expect(paid.payment_intent).toMatch(/^pi_/)
    expect(invoiceField(await stripe.paymentIntents.retrieve(String(paid.payment_intent)))).toBe(draft.id)
    const listed = await stripe.paymentIntents.list({ customer: customer.id })
    expect(listed.data.map(invoiceField)).toEqual([draft.id])
  })

  it('is null on an intent that pays no invoice, and names the invoice once the intent is attached to one', async () => {
    const { stripe } = pinned(OLD)
    const customer = await stripe.customers.create({ email: 'jenny@example.test' })
    const pi = await stripe.paymentIntents.create({ amount: 700, currency: 'usd', customer: customer.id })
    expect(invoiceField(await stripe.paymentIntents.retrieve(pi.id))).toBeNull()
    expect(invoiceField(await stripe.paymentIntents.retrieve(pi.id, { expand: ['invoice'] }))).toBeNull()
    await stripe.invoiceItems.create({ customer: customer.id, amount: 700, currency: 'usd' })
    const draft = await stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' })
    await stripe.invoices.finalizeInvoice(draft.id, { auto_advance: false })
    await stripe.invoices.attachPayment(draft.id, { payment_intent: pi.id })
    // The intent itself did not change: the answer kept for its earlier retrieve is not reused.
    expect(invoiceField(await stripe.paymentIntents.retrieve(pi.id))).toBe(draft.id)
  })

  it('is not in the answer at the current version', async () => {
    const { stripe } = pinned('2026-10-28.endive')
    const pi = await stripe.paymentIntents.create({ amount: 700, currency: 'usd' })
    expect(await stripe.paymentIntents.retrieve(pi.id)).not.toHaveProperty('invoice')
  })
})
