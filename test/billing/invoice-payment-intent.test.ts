import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { client, form, setup } from '../accounts/helpers.js'
import { pinned } from '../versions/helpers.js'

const HOUR = 3600_000

/** A v1 webhook endpoint of the app, whose deliveries the official client verifies. */
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

/** The sample's subscription: `default_incomplete`, saving the card on the subscription. */
function incomplete(stripe: Stripe, customer: string, price: string, expand: string) {
  return stripe.subscriptions.create({
    customer,
    items: [{ price }],
    payment_behavior: 'default_incomplete',
    payment_settings: { save_default_payment_method: 'on_subscription' },
    expand: [expand],
  })
}

describe("a default_incomplete subscription's first invoice carries its payment intent", () => {
  it('answers confirmation_secret when expanded, with an open invoice payment for the intent', async () => {
    const { stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.test' })
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    expect(sub.status).toBe('incomplete')
    const invoice = sub.latest_invoice as Stripe.Invoice
    expect(invoice.status).toBe('open')
    expect(invoice.confirmation_secret?.type).toBe('payment_intent')
    const secret = invoice.confirmation_secret?.client_secret ?? ''
    const piId = secret.split('_secret_')[0] ?? ''
    const pi = await stripe.paymentIntents.retrieve(piId)
    expect(pi).toMatchObject({
      amount: 500,
      currency: 'usd',
      customer: customer.id,
      status: 'requires_payment_method',
      setup_future_usage: 'off_session',
      client_secret: secret,
    })
    const payments = await stripe.invoicePayments.list({ invoice: invoice.id })
    expect(payments.data).toHaveLength(1)
    expect(payments.data[0]).toMatchObject({
      status: 'open',
      amount_requested: 500,
      amount_paid: null,
      payment: { type: 'payment_intent', payment_intent: pi.id },
    })
    // Not expanded, the field is left out as the provider does.
    expect(await stripe.invoices.retrieve(invoice.id)).not.toHaveProperty('confirmation_secret')
  })

  it('is paid when the customer confirms the intent by its client secret: the subscription turns active and keeps the card', async () => {
    const { sim, stripe } = setup()
    const events = await receiver(sim, stripe)
    const price = await plan(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.test' })
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const invoice = sub.latest_invoice as Stripe.Invoice
    const secret = invoice.confirmation_secret?.client_secret ?? ''
    const { intent } = sim.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_visa' })
    expect(intent.status).toBe('succeeded')
    const paid = await stripe.invoices.retrieve(invoice.id, { expand: ['payments'] })
    expect(paid.status).toBe('paid')
    expect(paid.amount_paid).toBe(500)
    expect(paid.payments?.data.map((p) => [p.status, p.payment.payment_intent])).toEqual([['paid', intent.id]])
    const active = await stripe.subscriptions.retrieve(sub.id)
    expect(active.status).toBe('active')
    expect(active.default_payment_method).toBe(intent.payment_method)
    await sim.settle()
    const types = events.map((e) => e.type)
    for (const t of ['invoice.paid', 'invoice.payment_succeeded', 'invoice_payment.paid', 'customer.subscription.updated']) {
      expect(types).toContain(t)
    }
    expect(types.indexOf('payment_intent.succeeded')).toBeLessThan(types.indexOf('invoice.paid'))
    const updated = events.filter((e) => e.type === 'customer.subscription.updated').at(-1)
    expect(updated).toBeDefined()
    expect((updated!.data.object as Stripe.Subscription).status).toBe('active')
    expect(updated!.data.previous_attributes).toMatchObject({ status: 'incomplete' })
  })

  it('is confirmed over HTTP with the publishable key, as the browser library does', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const secret = (sub.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret ?? ''
    const id = secret.split('_secret_')[0] ?? ''
    const res = await form(sim, sim.platform.publishableKey.test, 'POST', `/v1/payment_intents/${id}/confirm`, {
      client_secret: secret,
      payment_method: 'pm_card_visa',
    })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('succeeded')
    expect((await stripe.invoices.retrieve((sub.latest_invoice as Stripe.Invoice).id)).status).toBe('paid')
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('stays open after a declined card (invoice.payment_failed) and is paid when the intent is confirmed again', async () => {
    const { sim, stripe } = setup()
    const events = await receiver(sim, stripe)
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const invoice = sub.latest_invoice as Stripe.Invoice
    const secret = invoice.confirmation_secret?.client_secret ?? ''
    const declined = sim.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_chargeDeclined' })
    expect(declined.error?.code).toBe('card_declined')
    expect(declined.intent.status).toBe('requires_payment_method')
    const open = await stripe.invoices.retrieve(invoice.id)
    expect(open).toMatchObject({ status: 'open', attempted: true, attempt_count: 1 })
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete')
    await sim.settle()
    expect(events.map((e) => e.type)).toContain('invoice.payment_failed')
    expect(events.map((e) => e.type)).not.toContain('invoice.paid')
    const again = sim.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_visa' })
    expect(again.intent.status).toBe('succeeded')
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('paid')
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('is paid when the server confirms the intent, and after a 3-D Secure challenge', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const first = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const firstPi = ((first.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret ?? '').split('_secret_')[0]
    await stripe.paymentIntents.confirm(firstPi ?? '', { payment_method: 'pm_card_visa' })
    expect((await stripe.subscriptions.retrieve(first.id)).status).toBe('active')
    const second = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const secret = (second.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret ?? ''
    const { intent } = sim.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_threeDSecure2Required' })
    expect(intent.status).toBe('requires_action')
    expect((await stripe.subscriptions.retrieve(second.id)).status).toBe('incomplete')
    sim.customer.authenticate(String(intent.id), { outcome: 'complete' })
    expect((await stripe.invoices.retrieve((second.latest_invoice as Stripe.Invoice).id)).status).toBe('paid')
    expect((await stripe.subscriptions.retrieve(second.id)).status).toBe('active')
  })

  it('is paid by invoices.pay and on its hosted page through the same intent', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const viaPay = await incomplete(stripe, customer.id, price.id, 'latest_invoice')
    const payInvoice = viaPay.latest_invoice as Stripe.Invoice
    const paid = await stripe.invoices.pay(payInvoice.id, { payment_method: 'pm_card_visa' })
    expect(paid.status).toBe('paid')
    const payments = await stripe.invoicePayments.list({ invoice: payInvoice.id })
    expect(payments.data.map((p) => p.status)).toEqual(['paid'])
    expect((await stripe.subscriptions.retrieve(viaPay.id)).status).toBe('active')
    const hosted = await incomplete(stripe, customer.id, price.id, 'latest_invoice')
    const hostedInvoice = hosted.latest_invoice as Stripe.Invoice
    const declined = sim.customer.payInvoice(hostedInvoice.id, { paymentMethod: 'pm_card_chargeDeclined' })
    expect(declined.error?.code).toBe('card_declined')
    expect(declined.invoice.status).toBe('open')
    const done = sim.customer.payInvoice(hostedInvoice.id, { paymentMethod: 'pm_card_visa' })
    expect(done.invoice.status).toBe('paid')
    const records = await stripe.invoicePayments.list({ invoice: hostedInvoice.id })
    expect(records.data).toHaveLength(1)
    expect(records.data[0]?.status).toBe('paid')
    expect((await stripe.subscriptions.retrieve(hosted.id)).status).toBe('active')
  })

  it('paid out of band, cancels the intent it waited on', async () => {
    const { stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const invoice = sub.latest_invoice as Stripe.Invoice
    const piId = (invoice.confirmation_secret?.client_secret ?? '').split('_secret_')[0] ?? ''
    expect((await stripe.invoices.pay(invoice.id, { paid_out_of_band: true })).status).toBe('paid')
    expect((await stripe.paymentIntents.retrieve(piId)).status).toBe('canceled')
    expect((await stripe.invoicePayments.list({ invoice: invoice.id })).data.map((p) => p.status)).toEqual(['canceled'])
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('expires after 23 hours unpaid: the invoice is voided and its intent canceled', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const invoice = sub.latest_invoice as Stripe.Invoice
    const piId = (invoice.confirmation_secret?.client_secret ?? '').split('_secret_')[0] ?? ''
    await sim.clock.tickAsync(23 * HOUR)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete_expired')
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('void')
    expect((await stripe.paymentIntents.retrieve(piId)).status).toBe('canceled')
    expect((await stripe.invoicePayments.list({ invoice: invoice.id })).data.map((p) => p.status)).toEqual(['canceled'])
  })

  it('a customer without a payment method gets an invoice intent to confirm, with allow_incomplete too', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      expand: ['latest_invoice.confirmation_secret'],
    })
    expect(sub.status).toBe('incomplete')
    const secret = (sub.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret ?? ''
    expect(secret).toMatch(/^pi_.+_secret_/)
    expect(sim.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_visa' }).intent.status).toBe('succeeded')
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })
})

describe('an invoice waiting on its intent, across a snapshot', () => {
  it('is paid in the copy (JSON snapshot and fork) when the copied intent is confirmed, and not in the original', async () => {
    const { sim, stripe } = setup()
    const price = await plan(stripe)
    const customer = await stripe.customers.create({})
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.confirmation_secret')
    const invoice = sub.latest_invoice as Stripe.Invoice
    const secret = invoice.confirmation_secret?.client_secret ?? ''
    const copies = [createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) }), sim.fork()]
    for (const copy of copies) {
      const c = client(copy, copy.platform.secretKey.test)
      expect(copy.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_visa' }).intent.status).toBe('succeeded')
      expect((await c.invoices.retrieve(invoice.id)).status).toBe('paid')
      expect((await c.subscriptions.retrieve(sub.id)).status).toBe('active')
    }
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('open')
  })
})

describe('the 2022-08-01 subscription sample with default_incomplete', () => {
  it('gets the intent through latest_invoice.payment_intent and its invoice.paid webhook names the intent', async () => {
    const { sim, stripe } = pinned('2022-08-01')
    const events = await receiver(sim, stripe)
    const price = await plan(stripe)
    const customer = await stripe.customers.create({ email: 'jenny@example.test' })
    const sub = await incomplete(stripe, customer.id, price.id, 'latest_invoice.payment_intent')
    const invoice = sub.latest_invoice as unknown as {
      id: string
      paid: boolean
      payment_intent: { id: string; status: string; client_secret: string }
    }
    expect(invoice.paid).toBe(false)
    expect(invoice.payment_intent.status).toBe('requires_payment_method')
    expect(invoice.payment_intent.client_secret).toMatch(new RegExp(`^${invoice.payment_intent.id}_secret_`))
    const declined = sim.customer.confirmPaymentIntent(invoice.payment_intent.client_secret, {
      paymentMethod: 'pm_card_chargeDeclined',
    })
    expect(declined.error?.code).toBe('card_declined')
    const res = await form(
      sim,
      sim.platform.publishableKey.test,
      'POST',
      `/v1/payment_intents/${invoice.payment_intent.id}/confirm`,
      {
        client_secret: invoice.payment_intent.client_secret,
        payment_method: 'pm_card_visa',
      },
    )
    expect(res.status).toBe(200)
    await sim.settle()
    const paid = events.find((e) => e.type === 'invoice.paid')
    expect(paid?.api_version).toBe('2022-08-01')
    const body = paid?.data.object as unknown as { payment_intent: unknown; paid: boolean; subscription: string }
    expect(body.payment_intent).toBe(invoice.payment_intent.id)
    expect(body.paid).toBe(true)
    expect(body.subscription).toBe(sub.id)
    // The sample's handler: the intent's payment method becomes the subscription's default.
    const intent = await stripe.paymentIntents.retrieve(body.payment_intent as string)
    expect(intent.status).toBe('succeeded')
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    // The intent is made at finalization: `invoice.finalized` names it already.
    const finalized = events.find((e) => e.type === 'invoice.finalized')
    expect(finalized).toBeDefined()
    expect((finalized!.data.object as unknown as { payment_intent: unknown }).payment_intent).toBe(invoice.payment_intent.id)
    const failed = events.find((e) => e.type === 'invoice.payment_failed')
    expect(failed).toBeDefined()
    expect((failed!.data.object as unknown as { payment_intent: unknown }).payment_intent).toBe(invoice.payment_intent.id)
  })
})
