import { describe, expect, it } from 'vitest'
import { declaredAt, servedVersions } from '../../src/catalogue/versions.js'
import { leakedFields, missingFields, pinned } from './helpers.js'

async function flow(version: string): Promise<{ answers: Record<string, unknown> }> {
  const { sim, stripe } = pinned(version)
  const pmtParam = declaredAt(version, 'PaymentIntentCreateParams', 'params')?.has('payment_method_types')
    ? 'payment_method_types'
    : 'allowed_payment_method_types'
  const answers: Record<string, unknown> = {}
  const customer = await stripe.customers.create({
    email: 'a@b.test',
    payment_method: 'pm_card_visa',
    invoice_settings: { default_payment_method: 'pm_card_visa' },
  })
  answers.customer = customer
  const product = await stripe.products.create({ name: 'Plan' })
  answers.product = product
  const price = await stripe.prices.create({
    product: product.id,
    unit_amount: 900,
    currency: 'usd',
    recurring: { interval: 'month' },
  })
  const once = await stripe.prices.create({ product: product.id, unit_amount: 300, currency: 'usd' })
  answers.price = price
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    expand: ['latest_invoice'],
  })
  answers.subscription = sub
  const invoiceId = (sub.latest_invoice as { id: string }).id
  answers.invoice = await stripe.invoices.retrieve(invoiceId)
  answers.lines = await stripe.invoices.listLineItems(invoiceId)
  answers.invoices = await stripe.invoices.list({ customer: customer.id })
  const pi = await stripe.paymentIntents.create({
    amount: 1500,
    currency: 'usd',
    payment_method: 'pm_card_visa',
    confirm: true,
    [pmtParam]: ['card'],
  } as never)
  answers.paymentIntent = pi
  const chargeId =
    (pi as unknown as { latest_charge?: string }).latest_charge ??
    (pi as unknown as { charges: { data: Array<{ id: string }> } }).charges.data[0]!.id
  answers.charge = await stripe.charges.retrieve(chargeId)
  answers.refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 500 })
  answers.session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price: once.id, quantity: 1 }],
    success_url: 'https://shop.test/ok',
  })
  answers.setupIntent = await stripe.setupIntents.create({ customer: customer.id, [pmtParam]: ['card'] } as never)
  answers.webhookEndpoint = await stripe.webhookEndpoints.create({ url: 'https://shop.test/hooks', enabled_events: ['*'] })
  answers.events = await stripe.events.list({ limit: 100 })
  await sim.settle()
  return { answers }
}

describe('every served version answers in its own shape', () => {
  for (const { version } of servedVersions()) {
    it(`answers the flow at ${version} with every field its client declares non-optional, in sub-objects too, and none added later`, async () => {
      const { answers } = await flow(version)
      const missing = new Set<string>()
      const leaked = new Set<string>()
      for (const [name, answer] of Object.entries(answers)) {
        for (const m of missingFields(answer, version)) missing.add(`${name}: ${m}`)
        for (const m of leakedFields(answer, version)) leaked.add(`${name}: ${m}`)
      }
      expect([...missing]).toEqual([])
      expect([...leaked]).toEqual([])
      const events = (answers.events as { data: Array<{ api_version: string }> }).data
      expect(events.length).toBeGreaterThan(0)
      for (const e of events) expect(e.api_version).toBe(version)
    })
  }
})
