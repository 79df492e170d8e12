import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

type Refusal = { statusCode?: number; param?: string; message?: string }

async function refusal(p: Promise<unknown>): Promise<Refusal | undefined> {
  return p.then(
    () => undefined,
    (e: Refusal) => e,
  )
}

async function shop(stripe: Stripe) {
  const tee = await stripe.prices.create({ unit_amount: 2000, currency: 'usd', product_data: { name: 'Tee' } })
  const mug = await stripe.prices.create({ unit_amount: 1500, currency: 'usd', product_data: { name: 'Mug' } })
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price: tee.id, quantity: 1 }],
    success_url: 'https://example.com/ok',
  })
  return { tee, mug, session }
}

describe('checkout.sessions.update with line_items', () => {
  it("changes a kept line's quantity, adds a line, and recomputes the session's totals", async () => {
    const { stripe } = setup()
    const { mug, session } = await shop(stripe)
    const [line] = (await stripe.checkout.sessions.listLineItems(session.id)).data
    const updated = await stripe.checkout.sessions.update(session.id, {
      line_items: [
        { id: line?.id as string, quantity: 3 },
        { price: mug.id, quantity: 2 },
      ],
    })
    expect(updated.amount_subtotal).toBe(3 * 2000 + 2 * 1500)
    expect(updated.amount_total).toBe(9000)
    const lines = (await stripe.checkout.sessions.listLineItems(session.id)).data
    expect(lines.map((l) => [l.price?.id, l.quantity, l.amount_total])).toEqual([
      [line?.price?.id, 3, 6000],
      [mug.id, 2, 3000],
    ])
    // The kept line keeps its id.
    expect(lines[0]?.id).toBe(line?.id)
  })

  it('drops a line left out of the retransmitted list, and takes the order given', async () => {
    const { stripe } = setup()
    const { mug, session } = await shop(stripe)
    const [tee] = (await stripe.checkout.sessions.listLineItems(session.id)).data
    await stripe.checkout.sessions.update(session.id, {
      line_items: [{ id: tee?.id as string }, { price: mug.id, quantity: 1 }],
    })
    const two = (await stripe.checkout.sessions.listLineItems(session.id)).data
    const updated = await stripe.checkout.sessions.update(session.id, {
      line_items: [{ id: two[1]?.id as string }],
      expand: ['line_items'],
    })
    expect(updated.amount_total).toBe(1500)
    expect(updated.line_items?.data.map((l) => l.id)).toEqual([two[1]?.id])
  })

  it('applies the session discount to the new lines', async () => {
    const { stripe } = setup()
    const tee = await stripe.prices.create({ unit_amount: 2000, currency: 'usd', product_data: { name: 'Tee' } })
    const coupon = await stripe.coupons.create({ percent_off: 10 })
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: tee.id, quantity: 1 }],
      discounts: [{ coupon: coupon.id }],
      success_url: 'https://example.com/ok',
    })
    const [line] = (await stripe.checkout.sessions.listLineItems(session.id)).data
    const updated = await stripe.checkout.sessions.update(session.id, { line_items: [{ id: line?.id as string, quantity: 2 }] })
    expect(updated.amount_subtotal).toBe(4000)
    expect(updated.total_details?.amount_discount).toBe(400)
    expect(updated.amount_total).toBe(3600)
  })

  it('charges the updated total when the session is completed', async () => {
    const { stripe, sim } = setup()
    const { mug, session } = await shop(stripe)
    await stripe.checkout.sessions.update(session.id, { line_items: [{ price: mug.id, quantity: 1 }] })
    await sim.customer.completeCheckout(session.id)
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] })
    expect((done.payment_intent as Stripe.PaymentIntent).amount).toBe(1500)
  })

  it('refuses an unknown line id with 400 on its param, changing nothing', async () => {
    const { stripe } = setup()
    const { session } = await shop(stripe)
    const error = await refusal(stripe.checkout.sessions.update(session.id, { line_items: [{ id: 'li_nope', quantity: 2 }] }))
    expect(error).toMatchObject({ statusCode: 400, param: 'line_items[0][id]' })
    expect((await stripe.checkout.sessions.retrieve(session.id)).amount_total).toBe(2000)
  })

  it('refuses a new line without a quantity, and a recurring price in payment mode', async () => {
    const { stripe } = setup()
    const { mug, session } = await shop(stripe)
    const noQuantity = await refusal(stripe.checkout.sessions.update(session.id, { line_items: [{ price: mug.id }] }))
    expect(noQuantity).toMatchObject({ statusCode: 400, param: 'line_items[0][quantity]' })
    const monthly = await stripe.prices.create({
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
      product_data: { name: 'Club' },
    })
    const recurring = await refusal(
      stripe.checkout.sessions.update(session.id, { line_items: [{ price: monthly.id, quantity: 1 }] }),
    )
    expect(recurring).toMatchObject({ statusCode: 400, param: 'line_items[0][price]' })
  })

  it('refuses to update the line items of a session that is no longer open', async () => {
    const { stripe } = setup()
    const { mug, session } = await shop(stripe)
    await stripe.checkout.sessions.expire(session.id)
    const error = await refusal(stripe.checkout.sessions.update(session.id, { line_items: [{ price: mug.id, quantity: 1 }] }))
    expect(error).toMatchObject({ statusCode: 400 })
    expect(error?.message).toContain('only an open Checkout Session can have its line items updated')
  })
})
