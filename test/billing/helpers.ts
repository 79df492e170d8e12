import Stripe from 'stripe'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js'

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export interface Billing {
  sim: Simulator
  stripe: Stripe
  httpClient: ReturnType<typeof Stripe.createFetchHttpClient>
}

/** The official client over a simulator with prefix Stripe (limits off unless a test is about them). */
export function billingClient(options: SimulatorOptions = {}): Billing {
  const sim = createSimulator({
    seed: 15,
    headerPrefix: 'Stripe',
    limits: false,
    start: '2026-01-31T00:00:00.000Z',
    ...options,
  } as SimulatorOptions)
  const httpClient = Stripe.createFetchHttpClient(sim.fetch)
  const stripe = new Stripe(sim.platform.secretKey.test, { httpClient, maxNetworkRetries: 0 })
  return { sim, stripe, httpClient }
}

export async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}

/** A customer paying with a test card attached the way real integrations do. */
export async function payingCustomer(stripe: Stripe, card = 'pm_card_visa', extra: Stripe.CustomerCreateParams = {}) {
  const customer = await stripe.customers.create({ email: 'jenny@example.com', ...extra })
  const pm = await stripe.paymentMethods.attach(card, { customer: customer.id })
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } })
  return { customer, pm }
}

/** A product named `name` and a licensed monthly USD price of `unitAmount` for it. */
export async function monthlyPrice(stripe: Stripe, unitAmount: number, name = 'Seat') {
  const product = await stripe.products.create({ name })
  const price = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: unitAmount,
    recurring: { interval: 'month' },
  })
  return { product, price }
}

/**
 * An open `send_invoice` invoice of 2500 USD for a new customer.
 *
 * @example
 * const { customer, invoice } = await openInvoice(stripe)
 */
export async function openInvoice(stripe: Stripe) {
  const customer = await stripe.customers.create({ email: 'buyer@example.com' })
  await stripe.invoiceItems.create({ customer: customer.id, amount: 2500, currency: 'usd' })
  const draft = await stripe.invoices.create({
    customer: customer.id,
    collection_method: 'send_invoice',
    days_until_due: 30,
    pending_invoice_items_behavior: 'include',
  })
  const invoice = await stripe.invoices.finalizeInvoice(draft.id)
  return { customer, invoice }
}
