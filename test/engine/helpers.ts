import qs from 'qs'
import Stripe from 'stripe'
import { createSimulator, type Simulator } from '../../src/index.js'

/** A simulator with the `Stripe` prefix, limits off, and an official client on the platform test key. */
export function setup(seed = 7): { sim: Simulator; stripe: Stripe; key: string } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  const key = sim.platform.secretKey.test
  const stripe = new Stripe(key, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
  return { sim, stripe, key }
}

/** The client method an operation name denotes (`v2.billing.meterEvents.create`), bound to its resource. */
export function methodOf(stripe: Stripe, name: string): ((...args: unknown[]) => Promise<unknown>) | undefined {
  const parts = name.split('.')
  let at: any = stripe
  for (const p of parts.slice(0, -1)) at = at?.[p]
  const fn = at?.[parts[parts.length - 1] as string]
  return typeof fn === 'function' ? fn.bind(at) : undefined
}

/**
 * A raw call through `sim.fetch`: a `/v1` body form-encoded as the official client encodes it
 * (nested keys, indexed arrays), a `/v2` body as JSON.
 */
export async function call(
  sim: Simulator,
  key: string,
  method: string,
  path: string,
  body?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const json = path.startsWith('/v2/')
  const res = await sim.fetch(`https://api.stripe.com${path}`, {
    method,
    headers: {
      ...headers,
      Authorization: `Bearer ${key}`,
      ...(body ? { 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body: json ? JSON.stringify(body) : qs.stringify(body, { arrayFormat: 'indices' }) } : {}),
  })
  return { status: res.status, body: await res.json() }
}

/**
 * Params the provider requires beyond the client's types (one of two optional params, ids), by
 * object: the round trips send them with the generated minimum. `'{name}'` names a fixture id.
 */
export const CREATE_PARAMS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  // "One of payment_intent or charge."
  refund: { payment_intent: '{payment_intent}' },
  // A price without a product or product_data is refused; an amount makes it a fixed price.
  price: { product: '{product}', unit_amount: 500 },
  // One of customer or customer_account; the simulator bills customers.
  subscription: { customer: '{customer}', items: [{ price: '{price}' }] },
  invoice: { customer: '{customer}' },
  // One of percent_off or amount_off.
  coupon: { percent_off: 10 },
  // One of price or price_data (the simulator takes price); not a price the subscription already has.
  subscription_item: { price: '{addedPrice}' },
  invoiceitem: { customer: '{customer}', amount: 300, currency: 'usd' },
  // Optional in the client's types (a transfer may follow a source transaction); required here.
  transfer: { amount: 300 },
  // The simulator serves webhook endpoints (the first type the client lists is Amazon EventBridge).
  'v2.core.event_destination': {
    type: 'webhook_endpoint',
    enabled_events: ['*'],
    webhook_endpoint: { url: 'https://example.com/hook' },
  },
  // The generated minimum (1) is under the provider's 50-minor-unit floor for usd.
  payment_intent: { amount: 2000 },
  // A card from a test token, saved to the customer so its own retrieve and list find it (and update takes it).
  payment_method: { type: 'card', card: { token: 'tok_visa' }, customer: '{customer}' },
  // A customer's legacy card from a test card token.
  card: { source: 'tok_visa' },
  plan: { product: '{product}' },
  account_link: { account: '{destination}' },
  // One of customer or customer_account (or, for ephemeral keys, an issuing card, nonce or verification session).
  customer_session: { customer: '{customer}' },
  ephemeral_key: { customer: '{customer}' },
  // A line item names a price (or describes one): optional in the client's types, one of two.
  payment_link: { line_items: [{ price: '{price}', quantity: 1 }] },
  // A mode is required; setup mode needs no price, only a currency.
  'checkout.session': { mode: 'setup', currency: 'usd', success_url: 'https://shop.test/ok' },
  // Bank details in another currency than the account's: not the default of its currency, so deletable.
  bank_account: {
    external_account: { object: 'bank_account', country: 'GB', currency: 'gbp', account_number: 'GB82WEST12345698765432' },
  },
  // One of amount or lines; a credit note needs a finalized invoice (the subscription's first).
  credit_note: { invoice: '{invoice}', amount: 100 },
  // One of customer (the simulator schedules customers) or from_subscription, with phases.
  subscription_schedule: { customer: '{customer}', phases: [{ items: [{ price: '{addedPrice}' }] }] },
  // Optional in the client's types; a grant is the customer's, for metered prices.
  // A usage threshold names its meter.
  'billing.alert': { usage_threshold: { gte: 10, meter: '{meter}', recurrence: 'one_time' } },
  'billing.credit_grant': {
    customer: '{customer}',
    amount: { type: 'monetary', monetary: { currency: 'usd', value: 100 } },
    applicability_config: { scope: { price_type: 'metered' } },
  },
}

/**
 * The parent a nested path's placeholders name: a connected account under `/v1/accounts`, a
 * transfer under `/v1/transfers`, an application fee under `/v1/application_fees`, the product under
 * `/v1/products`, else the customer.
 *
 * @example
 * parentOf('/v1/accounts/:id/persons', { customer: 'cus_1', account: 'acct_1', transfer: 'tr_1' }) // 'acct_1'
 */
export function parentOf(
  path: string,
  ids: { customer: string; account: string; product?: string; transfer: () => Promise<string>; fee: () => Promise<string> },
): Promise<string> {
  if (path.startsWith('/v1/products/:') && ids.product !== undefined) return Promise.resolve(ids.product)
  if (path.startsWith('/v1/accounts/:')) return Promise.resolve(ids.account)
  if (path.startsWith('/v1/transfers/:')) return ids.transfer()
  if (path.startsWith('/v1/application_fees/:')) return ids.fee()
  return Promise.resolve(ids.customer)
}

/** The API version an operation needs named explicitly (ephemeral keys are made for a mobile SDK's version), by object. */
export const CREATE_VERSION: Readonly<Record<string, string>> = { ephemeral_key: '2026-10-28.endive' }

/**
 * `'{name}'` placeholders replaced by the fixture's ids, at any depth.
 *
 * @example
 * withIds({ customer: '{customer}' }, { customer: 'cus_1' }) // { customer: 'cus_1' }
 */
export function withIds(value: unknown, ids: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') return value.replace(/^\{(\w+)\}$/, (whole, n: string) => ids[n] ?? whole)
  if (Array.isArray(value)) return value.map((v) => withIds(v, ids))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v, ids)]))
  }
  return value
}
