import { describe, expect, it } from 'vitest'
import { billingClient, caught, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

const FEB1 = Date.UTC(2026, 1, 1) / 1000

/** A customer with a card, a $30 monthly price and two tax rates, from Jan 1. */
async function setUp() {
  const b = billingClient({ start: '2026-01-01T00:00:00.000Z' })
  const { stripe } = b
  const { customer } = await payingCustomer(stripe)
  const { price } = await monthlyPrice(stripe, 3000, 'Seat')
  const vat = await stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: false })
  const gst = await stripe.taxRates.create({ display_name: 'GST', percentage: 10, inclusive: true })
  return { ...b, customer, price, vat, gst }
}

describe('tax rates on subscription invoices (official client)', () => {
  it('an exclusive default tax rate is added to the total, with total_taxes and line taxes', async () => {
    const { stripe, customer, price, vat } = await setUp()
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_tax_rates: [vat.id],
    })
    expect(sub.default_tax_rates?.map((r) => r.id)).toEqual([vat.id])
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    const tax = { amount: 600, tax_behavior: 'exclusive', tax_rate_details: { tax_rate: vat.id }, taxable_amount: 3000 }
    expect(invoice).toMatchObject({ subtotal: 3000, total: 3600, total_excluding_tax: 3000, amount_paid: 3600 })
    expect(invoice.total_taxes).toMatchObject([tax])
    expect(invoice.lines.data[0]?.taxes).toMatchObject([tax])
  })

  it('an inclusive tax rate is inside the amount: the total is unchanged', async () => {
    const { stripe, customer, price, gst } = await setUp()
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_tax_rates: [gst.id],
    })
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    const amount = 3000 - Math.round(3000 / 1.1)
    expect(invoice).toMatchObject({ subtotal: 3000, total: 3000, total_excluding_tax: 3000 - amount })
    expect(invoice.total_taxes).toMatchObject([{ amount, tax_behavior: 'inclusive', taxable_amount: 3000 - amount }])
  })

  it("an item's tax_rates replace the subscription's default_tax_rates", async () => {
    const { stripe, customer, price, vat, gst } = await setUp()
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id, tax_rates: [gst.id] }],
      default_tax_rates: [vat.id],
    })
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(invoice.total_taxes?.map((t) => t.tax_rate_details?.tax_rate)).toEqual([gst.id])
  })

  it('taxes apply after discounts, and on cycle invoices', async () => {
    const b = await setUp()
    await b.stripe.coupons.create({ percent_off: 50, duration: 'forever', id: 'HALF' })
    const sub = await b.stripe.subscriptions.create({
      customer: b.customer.id,
      items: [{ price: b.price.id }],
      default_tax_rates: [b.vat.id],
      discounts: [{ coupon: 'HALF' }],
    })
    await b.sim.clock.tickAsync(FEB1 * 1000 + HOUR - b.sim.clock.now)
    const totals = (await b.stripe.invoices.list({ subscription: sub.id })).data.map((i) => i.total)
    expect(totals).toEqual([1800, 1800])
  })

  it('refuses an unknown tax rate with 400 and creates no subscription', async () => {
    const { stripe, customer, price } = await setUp()
    const refused = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], default_tax_rates: ['txr_missing'] }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'default_tax_rates[0]' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
  })

  it('default_tax_rates set by update apply from the next invoice', async () => {
    const b = await setUp()
    const sub = await b.stripe.subscriptions.create({ customer: b.customer.id, items: [{ price: b.price.id }] })
    await b.stripe.subscriptions.update(sub.id, { default_tax_rates: [b.vat.id] })
    expect((await b.stripe.invoices.createPreview({ subscription: sub.id })).total).toBe(3600)
  })
})
