import { describe, expect, it } from 'vitest'
import { openPaymentLink } from '../../src/domain/checkout/payment-links-resource.js'
import { NO_ORIGIN } from '../../src/domain/events/emit-snapshot.js'
import { setup } from '../accounts/helpers.js'

async function priced(stripe: ReturnType<typeof setup>['stripe'], recurring = false) {
  const product = await stripe.products.create({ name: 'Widget' })
  return stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1500,
    ...(recurring ? { recurring: { interval: 'month' as const } } : {}),
  })
}

describe('payment links', () => {
  it('creates a link with a real url and line items computed from prices', async () => {
    const { sim, stripe } = setup(141)
    const price = await priced(stripe)
    const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 3 }], metadata: { k: 'v' } })
    expect(link).toMatchObject({ object: 'payment_link', active: true, currency: 'usd', metadata: { k: 'v' } })
    expect(link.url).toMatch(/^https:\/\/buy\.stripe\.com\/test_\w+$/)
    const items = await stripe.paymentLinks.listLineItems(link.id)
    expect(items.data).toHaveLength(1)
    expect(items.data[0]).toMatchObject({
      object: 'item',
      quantity: 3,
      amount_subtotal: 4500,
      amount_total: 4500,
      description: 'Widget',
    })
    expect(items.data[0]?.price?.id).toBe(price.id)
    const expanded = await stripe.paymentLinks.retrieve(link.id, { expand: ['line_items'] })
    expect(expanded.line_items?.data.map((i) => i.id)).toEqual(items.data.map((i) => i.id))
    expect((await stripe.paymentLinks.list()).data.map((l) => l.id)).toEqual([link.id])
    expect(sim.admin.events({ type: 'payment_link.created' })).toHaveLength(1)
  })

  it('updates quantities by item id and deactivates the link, with payment_link.updated', async () => {
    const { sim, stripe } = setup(142)
    const price = await priced(stripe)
    const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 1 }] })
    const [item] = (await stripe.paymentLinks.listLineItems(link.id)).data
    await stripe.paymentLinks.update(link.id, { line_items: [{ id: item?.id as string, quantity: 2 }] })
    expect((await stripe.paymentLinks.listLineItems(link.id)).data[0]).toMatchObject({ quantity: 2, amount_total: 3000 })
    const off = await stripe.paymentLinks.update(link.id, { active: false })
    expect(off.active).toBe(false)
    expect(sim.admin.events({ type: 'payment_link.updated' }).length).toBeGreaterThan(0)
  })

  it('refuses an unknown price and an unknown item id, changing nothing', async () => {
    const { sim, stripe } = setup(143)
    const price = await priced(stripe)
    const before = sim.admin.events().length
    await expect(stripe.paymentLinks.create({ line_items: [{ price: 'price_nobody', quantity: 1 }] })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
    })
    expect(sim.admin.events().length).toBe(before)
    expect((await stripe.paymentLinks.list()).data).toEqual([])
    const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 1 }] })
    await expect(stripe.paymentLinks.update(link.id, { line_items: [{ id: 'li_nobody', quantity: 5 }] })).rejects.toMatchObject({
      statusCode: 400,
    })
    expect((await stripe.paymentLinks.listLineItems(link.id)).data[0]?.quantity).toBe(1)
  })

  it('opens a checkout session from the link url with its line items', async () => {
    const { sim, stripe } = setup(144)
    const price = await priced(stripe, true)
    const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 2 }] })
    const scope = { account: sim.platform.id, mode: 'test' as const }
    const opened = openPaymentLink(sim.service.engine, scope, link.url, NO_ORIGIN)
    const session = await stripe.checkout.sessions.retrieve(String(opened.id))
    expect(session).toMatchObject({ mode: 'subscription', payment_link: link.id, amount_total: 3000 })
    await stripe.paymentLinks.update(link.id, { active: false })
    expect(() => openPaymentLink(sim.service.engine, scope, link.url, NO_ORIGIN)).toThrow(/no longer active/)
  })
})
