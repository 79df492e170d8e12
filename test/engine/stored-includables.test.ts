import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from './helpers.js'
import { shapeProblems } from './shape-check.js'

/** The value at a dotted path of an answer (`restrictions.currency_options`). */
function at(answer: unknown, path: string): unknown {
  let v: unknown = answer
  for (const seg of path.split('.')) v = v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[seg]
  return v
}

/** Whether an answer holds the field at a dotted path (absent, not null). */
function holds(answer: unknown, path: string): boolean {
  const cut = path.lastIndexOf('.')
  const parent = cut < 0 ? answer : at(answer, path.slice(0, cut))
  return parent !== null && typeof parent === 'object' && Object.hasOwn(parent, path.slice(cut + 1))
}

async function priced(stripe: Stripe) {
  const product = await stripe.products.create({ name: 'Seat' })
  const price = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 500 })
  return { product, price }
}

describe('stored includable fields are withheld unless expand[] names them (official client)', () => {
  it("answers a coupon's applies_to and currency_options only when expanded, in retrieve and list", async () => {
    const { stripe } = setup()
    const { product } = await priced(stripe)
    const coupon = await stripe.coupons.create({
      amount_off: 100,
      currency: 'usd',
      currency_options: { eur: { amount_off: 90 } },
      applies_to: { products: [product.id] },
    })
    const plain = [coupon, await stripe.coupons.retrieve(coupon.id), ...(await stripe.coupons.list()).data]
    for (const answer of plain) {
      expect(holds(answer, 'applies_to')).toBe(false)
      expect(holds(answer, 'currency_options')).toBe(false)
    }
    const got = await stripe.coupons.retrieve(coupon.id, { expand: ['applies_to', 'currency_options'] })
    expect(got.applies_to).toEqual({ products: [product.id] })
    expect(got.currency_options).toEqual({ eur: { amount_off: 90 } })
    const listed = await stripe.coupons.list({ expand: ['data.currency_options'] })
    expect(listed.data[0]?.currency_options).toEqual({ eur: { amount_off: 90 } })
    expect(holds(listed.data[0], 'applies_to')).toBe(false)
  })

  it("answers a promotion code's restrictions.currency_options only when expanded", async () => {
    const { stripe } = setup()
    const coupon = await stripe.coupons.create({ percent_off: 10 })
    const promo = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      restrictions: { minimum_amount: 1000, minimum_amount_currency: 'usd', currency_options: { eur: { minimum_amount: 900 } } },
    })
    expect(promo.restrictions.minimum_amount).toBe(1000)
    expect(holds(promo, 'restrictions.currency_options')).toBe(false)
    expect(holds(await stripe.promotionCodes.retrieve(promo.id), 'restrictions.currency_options')).toBe(false)
    const got = await stripe.promotionCodes.retrieve(promo.id, { expand: ['restrictions.currency_options'] })
    expect(got.restrictions.currency_options).toEqual({ eur: { minimum_amount: 900 } })
    const listed = await stripe.promotionCodes.list({ expand: ['data.restrictions.currency_options'] })
    expect(listed.data[0]?.restrictions.currency_options).toEqual({ eur: { minimum_amount: 900 } })
  })

  it("answers a shipping rate's fixed_amount.currency_options only when expanded", async () => {
    const { stripe } = setup()
    const rate = await stripe.shippingRates.create({
      display_name: 'Ground',
      type: 'fixed_amount',
      fixed_amount: { amount: 500, currency: 'usd', currency_options: { eur: { amount: 450 } } },
    })
    expect(rate.fixed_amount).toEqual({ amount: 500, currency: 'usd' })
    const got = await stripe.shippingRates.retrieve(rate.id, { expand: ['fixed_amount.currency_options'] })
    expect(got.fixed_amount?.currency_options).toEqual({ eur: { amount: 450 } })
  })

  it("answers a quote's line_items and computed.upfront.line_items only when expanded, the same lines its list answers", async () => {
    const { stripe } = setup()
    const { price } = await priced(stripe)
    const customer = await stripe.customers.create({ email: 'quote@example.com' })
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id, quantity: 3 }] })
    for (const answer of [quote, await stripe.quotes.retrieve(quote.id), ...(await stripe.quotes.list()).data]) {
      expect(holds(answer, 'line_items')).toBe(false)
      expect(holds(answer, 'computed.upfront.line_items')).toBe(false)
      expect(holds(answer, 'computed.upfront.amount_total')).toBe(true)
    }
    const got = await stripe.quotes.retrieve(quote.id, { expand: ['line_items', 'computed.upfront.line_items'] })
    const listed = await stripe.quotes.listLineItems(quote.id)
    expect(got.line_items?.data.map((l) => [l.price?.id, l.quantity, l.amount_total])).toEqual([[price.id, 3, 1500]])
    expect(got.line_items?.data.map((l) => l.id)).toEqual(listed.data.map((l) => l.id))
    expect(got.computed.upfront.line_items?.data.map((l) => l.id)).toEqual(listed.data.map((l) => l.id))
    const inList = await stripe.quotes.list({ expand: ['data.line_items'] })
    expect(inList.data[0]?.line_items?.data[0]?.quantity).toBe(3)
  })

  it("answers a line item's discounts and taxes only when expanded (data.discounts, line_items.data.taxes)", async () => {
    const { stripe } = setup()
    const { price } = await priced(stripe)
    const customer = await stripe.customers.create({ email: 'lines@example.com' })
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id, quantity: 1 }] })
    const plain = await stripe.quotes.listLineItems(quote.id)
    expect(holds(plain.data[0], 'discounts')).toBe(false)
    expect(holds(plain.data[0], 'taxes')).toBe(false)
    const expanded = await stripe.quotes.listLineItems(quote.id, { expand: ['data.discounts', 'data.taxes'] })
    expect([expanded.data[0]?.discounts, expanded.data[0]?.taxes]).toEqual([[], []])
    const inQuote = await stripe.quotes.retrieve(quote.id, { expand: ['line_items.data.taxes'] })
    expect(inQuote.line_items?.data[0]?.taxes).toEqual([])
    expect(holds(inQuote.line_items?.data[0], 'discounts')).toBe(false)
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 2 }],
      success_url: 'https://example.com/done',
    })
    const items = await stripe.checkout.sessions.listLineItems(session.id, { expand: ['data.discounts'] })
    expect(items.data[0]?.discounts).toEqual([])
  })

  it("answers an invoice's payments only when expanded: an empty list before any payment", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'inv@example.com' })
    const invoice = await stripe.invoices.create({ customer: customer.id })
    expect(holds(invoice, 'payments')).toBe(false)
    const got = await stripe.invoices.retrieve(invoice.id, { expand: ['payments'] })
    expect(got.payments).toEqual({
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/invoice_payments?invoice=${invoice.id}`,
    })
  })

  it("answers a portal configuration's features.subscription_update.products only when expanded", async () => {
    const { stripe } = setup()
    const { product, price } = await priced(stripe)
    const config = await stripe.billingPortal.configurations.create({
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          products: [{ product: product.id, prices: [price.id] }],
        },
      },
    })
    expect(config.features.subscription_update.enabled).toBe(true)
    expect(holds(config, 'features.subscription_update.products')).toBe(false)
    const got = await stripe.billingPortal.configurations.retrieve(config.id, {
      expand: ['features.subscription_update.products'],
    })
    expect(got.features.subscription_update.products).toEqual([{ product: product.id, prices: [price.id] }])
  })

  it("answers a customer's tax only when expanded, its location from the billing address and the IP address given", async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({
      email: 'tax@example.com',
      address: { country: 'US', state: 'CA', postal_code: '94103' },
      tax: { ip_address: '203.0.113.7' },
    })
    expect(holds(customer, 'tax')).toBe(false)
    const got = await stripe.customers.retrieve(customer.id, { expand: ['tax'] })
    expect((got as Stripe.Customer).tax).toEqual({
      automatic_tax: 'supported',
      ip_address: '203.0.113.7',
      location: { country: 'US', source: 'billing_address', state: 'CA' },
      provider: 'stripe',
    })
    const bare = await stripe.customers.create({ email: 'bare@example.com' })
    const none = (await stripe.customers.retrieve(bare.id, { expand: ['tax'] })) as Stripe.Customer
    expect(none.tax).toEqual({ automatic_tax: 'unrecognized_location', ip_address: null, location: null, provider: 'stripe' })
    const moved = await stripe.customers.update(customer.id, { address: { country: 'DE', state: 'BE' }, expand: ['tax'] })
    expect(moved.tax?.location).toEqual({ country: 'DE', source: 'billing_address', state: 'BE' })
    // A US address needs its postal code before automatic tax can place the customer.
    const vague = await stripe.customers.create({ email: 'us@example.com', address: { country: 'US', state: 'NY' } })
    const unplaced = (await stripe.customers.retrieve(vague.id, { expand: ['tax'] })) as Stripe.Customer
    expect([unplaced.tax?.automatic_tax, unplaced.tax?.location]).toEqual(['unrecognized_location', null])
  })
})

describe('line items answered on expand are whole and paged as their lists are', () => {
  it("answers a checkout session's first ten line items on expand, with has_more, the rest through listLineItems", async () => {
    const { stripe } = setup()
    const { product } = await priced(stripe)
    const lines = Array.from({ length: 12 }, (_, i) => ({
      price_data: { currency: 'usd', unit_amount: 100 + i, product: product.id },
      quantity: 1,
    }))
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: lines,
      success_url: 'https://example.com/done',
    })
    const got = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] })
    expect([got.line_items?.data.length, got.line_items?.has_more]).toEqual([10, true])
    const rest = await stripe.checkout.sessions.listLineItems(session.id, { starting_after: got.line_items?.data[9]?.id })
    expect(rest.data.map((l) => l.amount_total)).toEqual([110, 111])
  })

  it("answers a quote's first ten line items on expand, with has_more and the total, the rest through listLineItems", async () => {
    const { stripe } = setup()
    const { product } = await priced(stripe)
    const customer = await stripe.customers.create({ email: 'many@example.com' })
    const lines = []
    for (let i = 0; i < 12; i++) {
      const price = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 100 + i })
      lines.push({ price: price.id, quantity: 1 })
    }
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: lines })
    expect(quote.amount_total).toBe(12 * 100 + 66)
    const got = await stripe.quotes.retrieve(quote.id, { expand: ['line_items', 'computed.upfront.line_items'] })
    for (const list of [got.line_items, got.computed.upfront.line_items]) {
      expect([list?.data.length, list?.has_more, (list as { total_count?: number } | undefined)?.total_count]).toEqual([
        10,
        true,
        12,
      ])
    }
    const rest = await stripe.quotes.listLineItems(quote.id, { starting_after: got.line_items?.data[9]?.id })
    expect(rest.data.map((l) => l.amount_total)).toEqual([110, 111])
  })

  it("answers a quote's line items with every field the client declares, described by their product's name", async () => {
    const { stripe } = setup()
    const { price } = await priced(stripe)
    const customer = await stripe.customers.create({ email: 'whole@example.com' })
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id, quantity: 2 }] })
    const listed = await stripe.quotes.listLineItems(quote.id)
    const got = await stripe.quotes.retrieve(quote.id, { expand: ['line_items'] })
    for (const item of [listed.data[0], got.line_items?.data[0]]) {
      expect(shapeProblems('LineItem', JSON.parse(JSON.stringify(item)))).toEqual([])
      expect(item).toMatchObject({ description: 'Seat', adjustable_quantity: null, metadata: {} })
    }
  })
})

describe("a customer's cash balance", () => {
  it('answers its funded amount by currency, in retrieveCashBalance and in the expanded cash_balance', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'cash@example.com' })
    const before = (await stripe.customers.retrieve(customer.id, { expand: ['cash_balance'] })) as Stripe.Customer
    expect(before.cash_balance).toBeNull()
    expect(await stripe.customers.retrieveCashBalance(customer.id)).toMatchObject({ available: null, customer: customer.id })
    await stripe.testHelpers.customers.fundCashBalance(customer.id, { amount: 5000, currency: 'usd' })
    const balance = await stripe.customers.retrieveCashBalance(customer.id)
    expect(balance).toEqual({
      object: 'cash_balance',
      available: { usd: 5000 },
      customer: customer.id,
      customer_account: null,
      livemode: false,
      settings: { reconciliation_mode: 'automatic', using_merchant_default: true },
    })
    const after = (await stripe.customers.retrieve(customer.id, { expand: ['cash_balance'] })) as Stripe.Customer
    expect(after.cash_balance).toEqual(balance)
    expect(holds(await stripe.customers.retrieve(customer.id), 'cash_balance')).toBe(false)
  })

  it('refuses the cash balance of a customer that does not exist with 404', async () => {
    const { stripe } = setup()
    await expect(stripe.customers.retrieveCashBalance('cus_missing')).rejects.toMatchObject({ statusCode: 404 })
  })
})
