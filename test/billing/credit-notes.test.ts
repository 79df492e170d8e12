import { describe, expect, it } from 'vitest'
import { billingClient, caught, payingCustomer } from './helpers.js'

/** A customer with a $50 manual invoice of two lines ($30 + $20), finalized (open) or paid. */
async function invoiced(pay: boolean) {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe)
  await b.stripe.invoiceItems.create({ customer: customer.id, amount: 3000, currency: 'usd', description: 'Plan' })
  await b.stripe.invoiceItems.create({ customer: customer.id, amount: 2000, currency: 'usd', description: 'Support' })
  const draft = await b.stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' })
  const invoice = pay
    ? await b.stripe.invoices.pay(draft.id)
    : await b.stripe.invoices.finalizeInvoice(draft.id, { auto_advance: false })
  return { ...b, customer, invoice }
}

describe('credit notes (official client, prefix Stripe)', () => {
  it('previews, then reduces what an open invoice asks; a credit of the rest marks it paid', async () => {
    const { stripe, sim, invoice } = await invoiced(false)
    expect(invoice).toMatchObject({ status: 'open', amount_due: 5000 })
    const [plan] = invoice.lines.data
    const params = {
      invoice: invoice.id,
      lines: [{ type: 'invoice_line_item' as const, invoice_line_item: plan?.id as string, quantity: 1 }],
      reason: 'order_change' as const,
    }
    const preview = await stripe.creditNotes.preview(params)
    expect(preview).toMatchObject({
      object: 'credit_note',
      total: 3000,
      pre_payment_amount: 3000,
      type: 'pre_payment',
      status: 'issued',
    })
    const previewLines = await stripe.creditNotes.listPreviewLineItems(params)
    expect(previewLines.data.map((l) => [l.type, l.amount, l.invoice_line_item])).toEqual([['invoice_line_item', 3000, plan?.id]])
    expect(sim.admin.events({ type: 'credit_note.created' })).toHaveLength(0)

    const note = await stripe.creditNotes.create({ ...params, memo: 'Downgraded', metadata: { ticket: '42' } })
    expect(note).toMatchObject({
      invoice: invoice.id,
      amount: 3000,
      total: 3000,
      pre_payment_amount: 3000,
      post_payment_amount: 0,
      memo: 'Downgraded',
      reason: 'order_change',
      metadata: { ticket: '42' },
      status: 'issued',
    })
    expect(note.number).toBe(`${invoice.number}-CN-01`)
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({
      status: 'open',
      amount_due: 2000,
      amount_remaining: 2000,
      pre_payment_credit_notes_amount: 3000,
    })
    const lines = await stripe.creditNotes.listLineItems(note.id)
    expect(lines.data.map((l) => l.amount)).toEqual([3000])
    expect(
      sim.admin.events({ type: 'credit_note.created' }).map((e) => (e.body.data as { object: { id: string } }).object.id),
    ).toEqual([note.id])

    const rest = await stripe.creditNotes.create({ invoice: invoice.id, amount: 2000 })
    expect(rest.number).toBe(`${invoice.number}-CN-02`)
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid', amount_remaining: 0 })
    expect((await stripe.creditNotes.list({ invoice: invoice.id })).data.map((c) => c.id)).toEqual([rest.id, note.id])
  })

  it('refunds a paid invoice through a refund and credits the customer balance with the rest', async () => {
    const { stripe, sim, customer, invoice } = await invoiced(true)
    expect(invoice.status).toBe('paid')
    const note = await stripe.creditNotes.create({
      invoice: invoice.id,
      lines: [
        { type: 'custom_line_item', description: 'Goodwill', unit_amount: 500, quantity: 2 },
        { type: 'invoice_line_item', invoice_line_item: invoice.lines.data[1]?.id as string, amount: 1500 },
      ],
      refund_amount: 1500,
      credit_amount: 1000,
    })
    expect(note).toMatchObject({ total: 2500, post_payment_amount: 2500, type: 'post_payment' })
    const refundId = note.refunds[0]?.refund as string
    const refund = await stripe.refunds.retrieve(refundId)
    expect(refund).toMatchObject({ amount: 1500, status: 'succeeded' })
    const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data
    expect(refund.payment_intent).toBe(payment?.payment.payment_intent)
    expect((await stripe.customers.retrieve(customer.id)) as { balance: number }).toMatchObject({ balance: -1000 })
    const txn = await stripe.customers.retrieveBalanceTransaction(customer.id, note.customer_balance_transaction as string)
    expect(txn).toMatchObject({ amount: -1000, type: 'credit_note', credit_note: note.id })
    expect((await stripe.invoices.retrieve(invoice.id)).post_payment_credit_notes_amount).toBe(2500)
    expect(sim.admin.events({ type: 'charge.refunded' })).toHaveLength(1)

    // Nothing more than what is left: 5000 paid, 2500 credited.
    const over = await caught(stripe.creditNotes.create({ invoice: invoice.id, amount: 2600 }))
    expect(over).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'amount' })
    // A credit note with a refund cannot be voided.
    const refused = await caught(stripe.creditNotes.voidCreditNote(note.id))
    expect(refused).toMatchObject({ statusCode: 400, code: 'credit_note_unexpected_state' })
  })

  it('voids a balance credit (the balance restored, credit_note.voided) and updates memo and metadata', async () => {
    const { stripe, sim, customer, invoice } = await invoiced(true)
    const note = await stripe.creditNotes.create({ invoice: invoice.id, amount: 700 })
    expect((await stripe.customers.retrieve(customer.id)) as { balance: number }).toMatchObject({ balance: -700 })
    const updated = await stripe.creditNotes.update(note.id, { memo: 'Late delivery', metadata: { a: '1' } })
    expect(updated).toMatchObject({ memo: 'Late delivery', metadata: { a: '1' } })
    expect(sim.admin.events({ type: 'credit_note.updated' })).toHaveLength(1)
    const voided = await stripe.creditNotes.voidCreditNote(note.id)
    expect(voided.status).toBe('void')
    expect(voided.voided_at).toBe(Math.floor(sim.clock.now / 1000))
    expect((await stripe.customers.retrieve(customer.id)) as { balance: number }).toMatchObject({ balance: 0 })
    expect((await stripe.invoices.retrieve(invoice.id)).post_payment_credit_notes_amount).toBe(0)
    expect(sim.admin.events({ type: 'credit_note.voided' })).toHaveLength(1)
    expect((await caught(stripe.creditNotes.voidCreditNote(note.id))).code).toBe('credit_note_unexpected_state')
  })

  it('refuses bad credit notes with the provider errors, changing nothing', async () => {
    const { stripe, sim, customer, invoice } = await invoiced(false)
    const before = sim.admin.events().length
    const cases = [
      [{ invoice: 'in_missing', amount: 100 }, 'resource_missing', 'invoice'],
      [{ invoice: invoice.id }, 'parameter_missing', 'lines'],
      [{ invoice: invoice.id, amount: 6000 }, 'parameter_invalid', 'amount'],
      [{ invoice: invoice.id, amount: 100, refund_amount: 100 }, 'parameter_invalid', 'refund_amount'],
      [
        { invoice: invoice.id, lines: [{ type: 'invoice_line_item', invoice_line_item: 'il_nope' }] },
        'resource_missing',
        'lines[0][invoice_line_item]',
      ],
      [
        { invoice: invoice.id, lines: [{ type: 'custom_line_item', description: 'x' }] },
        'parameter_missing',
        'lines[0][unit_amount]',
      ],
    ] as const
    for (const [params, code, param] of cases) {
      const error = await caught(stripe.creditNotes.create(params as never))
      expect([error.statusCode, error.code, error.param]).toEqual([400, code, param])
    }
    expect((await caught(stripe.creditNotes.retrieve('cn_missing'))).statusCode).toBe(404)
    const draft = await stripe.invoices.create({ customer: customer.id })
    expect((await caught(stripe.creditNotes.create({ invoice: draft.id, amount: 1 }))).code).toBe('invoice_unexpected_state')
    expect(sim.admin.events().length).toBe(before + 1) // only draft's invoice.created
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ amount_due: 5000, pre_payment_credit_notes_amount: 0 })
    expect((await stripe.creditNotes.list()).data).toEqual([])
  })
})
