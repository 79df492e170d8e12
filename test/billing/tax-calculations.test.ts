import { describe, expect, it } from 'vitest'
import { billingClient, caught } from './helpers.js'

async function rates(stripe: ReturnType<typeof billingClient>['stripe']) {
  const state = await stripe.taxRates.create({
    display_name: 'Sales tax',
    percentage: 7.25,
    inclusive: false,
    country: 'US',
    state: 'CA',
    jurisdiction: 'CA',
  })
  const other = await stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: true, country: 'FR' })
  return { state, other }
}

const address = { country: 'US', state: 'CA', postal_code: '94103', line1: '1 Main St', city: 'SF' }

describe('tax calculations', () => {
  it('taxes each line at the rates of the customer address, exclusive and inclusive', async () => {
    const { stripe } = billingClient()
    await rates(stripe)
    const calc = await stripe.tax.calculations.create({
      currency: 'usd',
      customer_details: { address, address_source: 'billing' },
      line_items: [
        { amount: 1000, reference: 'A' },
        { amount: 1073, reference: 'B', tax_behavior: 'inclusive', quantity: 2 },
      ],
      expand: ['line_items'],
    })
    expect(calc.id).toMatch(/^taxcalc_/)
    expect(calc.tax_amount_exclusive).toBe(73) // 7.25% of 1000, rounded
    expect(calc.tax_amount_inclusive).toBe(73) // 1073 holds 1000 + 73
    expect(calc.amount_total).toBe(1000 + 73 + 1073)
    expect(calc.tax_breakdown.map((b) => [b.amount, b.inclusive, b.tax_rate_details.percentage_decimal])).toEqual([
      [73, false, '7.25'],
      [73, true, '7.25'],
    ])
    const lines = await stripe.tax.calculations.listLineItems(calc.id!)
    expect(lines.data.map((l) => [l.reference, l.amount, l.amount_tax, l.quantity])).toEqual(
      [
        ['A', 1000, 73],
        ['B', 1073, 73],
      ].map(([r, a, t], i) => [r, a, t, i === 0 ? 1 : 2]),
    )
    expect(lines.data[0]?.tax_breakdown?.[0]?.jurisdiction.state).toBe('CA')
    expect((await stripe.tax.calculations.retrieve(calc.id!)).amount_total).toBe(calc.amount_total)
  })

  it('reads the address of a customer and taxes nothing where the account has no rate', async () => {
    const { stripe } = billingClient()
    await rates(stripe)
    const customer = await stripe.customers.create({ address: { country: 'DE', city: 'Berlin' } })
    const calc = await stripe.tax.calculations.create({
      currency: 'eur',
      customer: customer.id,
      line_items: [{ amount: 500, reference: 'A' }],
    })
    expect(calc.customer).toBe(customer.id)
    expect(calc.customer_details.address?.country).toBe('DE')
    expect([calc.tax_amount_exclusive, calc.amount_total]).toEqual([0, 500])
  })

  it('refuses a calculation without an address or lines with 400, keeping nothing', async () => {
    const { sim, stripe } = billingClient()
    const noAddress = await caught(
      stripe.tax.calculations.create({
        currency: 'usd',
        customer_details: { address_source: 'billing' },
        line_items: [{ amount: 1, reference: 'A' }],
      }),
    )
    expect([noAddress.statusCode, noAddress.code, noAddress.param]).toEqual([
      400,
      'parameter_missing',
      'customer_details[address][country]',
    ])
    const dup = await caught(
      stripe.tax.calculations.create({
        currency: 'usd',
        customer_details: { address, address_source: 'billing' },
        line_items: [
          { amount: 1, reference: 'A' },
          { amount: 2, reference: 'A' },
        ],
      }),
    )
    expect([dup.statusCode, dup.param]).toEqual([400, 'line_items[1][reference]'])
    expect(sim.admin.events().length).toBe(0)
  })
})

describe('tax transactions', () => {
  it('records a calculation, reverses part of it, then the rest, never more than was recorded', async () => {
    const { stripe } = billingClient()
    await rates(stripe)
    const calc = await stripe.tax.calculations.create({
      currency: 'usd',
      customer_details: { address, address_source: 'billing' },
      line_items: [{ amount: 2000, reference: 'A' }],
    })
    const tx = await stripe.tax.transactions.createFromCalculation({ calculation: calc.id!, reference: 'order_1' })
    expect([tx.type, tx.reference, tx.reversal]).toEqual(['transaction', 'order_1', null])
    const [line] = (await stripe.tax.transactions.listLineItems(tx.id)).data
    expect([line?.amount, line?.amount_tax, line?.type]).toEqual([2000, 145, 'transaction'])

    const again = await caught(stripe.tax.transactions.createFromCalculation({ calculation: calc.id!, reference: 'order_1' }))
    expect([again.statusCode, again.param]).toEqual([400, 'reference'])

    const part = await stripe.tax.transactions.createReversal({
      mode: 'partial',
      original_transaction: tx.id,
      reference: 'order_1_r1',
      line_items: [{ original_line_item: line!.id, reference: 'A', amount: -500, amount_tax: -36 }],
    })
    expect([part.type, part.reversal?.original_transaction]).toEqual(['reversal', tx.id])
    const too = await caught(
      stripe.tax.transactions.createReversal({
        mode: 'partial',
        original_transaction: tx.id,
        reference: 'order_1_r2',
        line_items: [{ original_line_item: line!.id, reference: 'A', amount: -1600, amount_tax: -100 }],
      }),
    )
    expect([too.statusCode, too.param]).toEqual([400, 'line_items[0][amount]'])
    const full = await caught(
      stripe.tax.transactions.createReversal({ mode: 'full', original_transaction: tx.id, reference: 'order_1_r3' }),
    )
    expect(full.statusCode).toBe(400)
    const rest = await stripe.tax.transactions.createReversal({
      mode: 'partial',
      original_transaction: tx.id,
      reference: 'order_1_r2',
      line_items: [{ original_line_item: line!.id, reference: 'A', amount: -1500, amount_tax: -109 }],
    })
    expect((await stripe.tax.transactions.retrieve(rest.id)).reference).toBe('order_1_r2')
    const [restLine] = (await stripe.tax.transactions.listLineItems(rest.id)).data
    expect([restLine?.amount, restLine?.amount_tax, restLine?.reversal?.original_line_item]).toEqual([-1500, -109, line!.id])
  })

  it('reverses a whole transaction in full', async () => {
    const { stripe } = billingClient()
    await rates(stripe)
    const calc = await stripe.tax.calculations.create({
      currency: 'usd',
      customer_details: { address, address_source: 'billing' },
      line_items: [
        { amount: 1000, reference: 'A' },
        { amount: 300, reference: 'B' },
      ],
    })
    const tx = await stripe.tax.transactions.createFromCalculation({ calculation: calc.id!, reference: 'o2' })
    const rev = await stripe.tax.transactions.createReversal({ mode: 'full', original_transaction: tx.id, reference: 'o2_r' })
    const lines = (await stripe.tax.transactions.listLineItems(rev.id)).data
    expect(lines.map((l) => [l.amount, l.amount_tax])).toEqual([
      [-1000, -73],
      [-300, -22],
    ])
  })

  it('refuses a transaction from a calculation that does not exist with 400', async () => {
    const { stripe } = billingClient()
    const e = await caught(stripe.tax.transactions.createFromCalculation({ calculation: 'taxcalc_nope', reference: 'x' }))
    expect([e.statusCode, e.code, e.param]).toEqual([400, 'resource_missing', 'calculation'])
  })
})
