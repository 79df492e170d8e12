import { describe, expect, it } from 'vitest'
import { billingClient, caught, monthlyPrice, payingCustomer } from './helpers.js'

async function draftWithItem() {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe)
  await b.stripe.invoiceItems.create({ customer: customer.id, amount: 1000, currency: 'usd', description: 'Consulting' })
  const draft = await b.stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' })
  return { ...b, customer, draft }
}

describe('invoice line editing on drafts (official client, prefix Stripe)', () => {
  it('adds lines by amount, by price and from a pending item, and the totals follow', async () => {
    const { stripe, sim, customer, draft } = await draftWithItem()
    expect(draft.total).toBe(1000)
    const { price } = await monthlyPrice(stripe, 250)
    const oneOff = await stripe.prices.create({ product: price.product as string, currency: 'usd', unit_amount: 300 })
    const pending = await stripe.invoiceItems.create({ customer: customer.id, amount: 50, currency: 'usd' })
    expect(pending.invoice).toBeNull()
    const added = await stripe.invoices.addLines(draft.id, {
      lines: [
        { amount: 500, description: 'Setup fee', metadata: { kind: 'setup' } },
        { pricing: { price: oneOff.id }, quantity: 2 },
        { invoice_item: pending.id },
      ],
      invoice_metadata: { edited: 'yes' },
    })
    expect(added.lines.data.map((l) => l.amount)).toEqual([1000, 500, 600, 50])
    expect(added).toMatchObject({ subtotal: 2150, total: 2150, amount_due: 2150, metadata: { edited: 'yes' } })
    expect(added.lines.data[1]).toMatchObject({ description: 'Setup fee', metadata: { kind: 'setup' } })
    expect((await stripe.invoiceItems.retrieve(pending.id)).invoice).toBe(draft.id)
    expect(sim.admin.events({ type: 'invoice.updated' }).at(-1)?.body.data).toMatchObject({
      object: { id: draft.id, total: 2150 },
    })

    const paid = await stripe.invoices.pay(draft.id)
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 2150 })
  })

  it('updates a line and its invoice item, and removes lines by delete or unassign', async () => {
    const { stripe, customer, draft } = await draftWithItem()
    const withTwo = await stripe.invoices.addLines(draft.id, { lines: [{ amount: 400, description: 'Extra' }] })
    const [first, second] = withTwo.lines.data
    const updated = await stripe.invoices.updateLines(draft.id, {
      lines: [{ id: first?.id as string, amount: 1200, description: 'Consulting (revised)', metadata: { v: '2' } }],
    })
    expect(updated.lines.data[0]).toMatchObject({
      id: first?.id,
      amount: 1200,
      description: 'Consulting (revised)',
      metadata: { v: '2' },
    })
    expect(updated.total).toBe(1600)
    const itemId = first?.parent?.invoice_item_details?.invoice_item as string
    expect(await stripe.invoiceItems.retrieve(itemId)).toMatchObject({ amount: 1200, description: 'Consulting (revised)' })

    const removed = await stripe.invoices.removeLines(draft.id, {
      lines: [
        { id: first?.id as string, behavior: 'unassign' },
        { id: second?.id as string, behavior: 'delete' },
      ],
    })
    expect(removed.lines.data).toEqual([])
    expect(removed.total).toBe(0)
    expect((await stripe.invoiceItems.retrieve(itemId)).invoice).toBeNull()
    const pending = await stripe.invoiceItems.list({ customer: customer.id, pending: true })
    expect(pending.data.map((i) => i.id)).toEqual([itemId])
    expect(
      (await caught(stripe.invoiceItems.retrieve(second?.parent?.invoice_item_details?.invoice_item as string))).statusCode,
    ).toBe(404)
  })

  it('refuses edits of a finalized invoice, unknown lines and a price in another currency, changing nothing', async () => {
    const { stripe, sim, draft } = await draftWithItem()
    const [line] = draft.lines.data
    const eur = await stripe.prices.create({ product_data: { name: 'Euro' }, currency: 'eur', unit_amount: 100 })
    const before = sim.admin.events().length
    const mixed = await caught(stripe.invoices.addLines(draft.id, { lines: [{ amount: 100 }, { pricing: { price: eur.id } }] }))
    expect(mixed).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'lines[1][pricing][price]' })
    const noAmount = await caught(stripe.invoices.addLines(draft.id, { lines: [{ description: 'nothing' }] }))
    expect(noAmount).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'lines[0][amount]' })
    const unknown = await caught(stripe.invoices.updateLines(draft.id, { lines: [{ id: 'il_missing', amount: 5 }] }))
    expect(unknown).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'lines[0][id]' })
    expect(sim.admin.events().length).toBe(before)
    expect((await stripe.invoices.retrieve(draft.id)).lines.data.map((l) => l.id)).toEqual([line?.id])

    await stripe.invoices.finalizeInvoice(draft.id)
    const late = await caught(stripe.invoices.addLines(draft.id, { lines: [{ amount: 100 }] }))
    expect(late).toMatchObject({ statusCode: 400, code: 'invoice_unexpected_state' })
    const lateRemove = await caught(
      stripe.invoices.removeLines(draft.id, { lines: [{ id: line?.id as string, behavior: 'delete' }] }),
    )
    expect(lateRemove.code).toBe('invoice_unexpected_state')
  })

  it("keeps a subscription item's line: only its description and metadata change, and it cannot be removed", async () => {
    const { stripe, sim } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 900)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    // At the period end the cycle's invoice is a draft for the grace hour.
    await sim.clock.tickAsync(Date.UTC(2026, 1, 28) - sim.clock.now)
    const [draft] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(draft?.status).toBe('draft')
    const subLine = draft?.lines.data[0]
    expect(subLine?.parent?.type).toBe('subscription_item_details')
    const id = draft?.id as string
    const renamed = await stripe.invoices.updateLines(id, {
      lines: [{ id: subLine?.id as string, description: 'Seat (February)', metadata: { team: 'a' } }],
    })
    expect(renamed.lines.data[0]).toMatchObject({ description: 'Seat (February)', metadata: { team: 'a' }, amount: 900 })
    const amount = await caught(stripe.invoices.updateLines(id, { lines: [{ id: subLine?.id as string, amount: 1 }] }))
    expect(amount).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'lines[0][amount]' })
    const removed = await caught(stripe.invoices.removeLines(id, { lines: [{ id: subLine?.id as string, behavior: 'delete' }] }))
    expect(removed).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'lines[0][id]' })
    const extra = await stripe.invoices.addLines(id, { lines: [{ amount: 100, description: 'Support' }] })
    expect(extra.total).toBe(1000)
    // Finalized and paid at the end of the grace hour with the added line.
    await sim.clock.tickAsync(3_600_000)
    expect(await stripe.invoices.retrieve(id)).toMatchObject({ status: 'paid', amount_paid: 1000 })
  })
})
