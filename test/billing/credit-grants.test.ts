import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { billingClient, caught, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

const T0 = Date.UTC(2026, 0, 31) / 1000
const FEB28 = Date.UTC(2026, 1, 28) / 1000

/** A paying customer on a metered price (2 cents a call) plus a $10 licensed seat. */
async function metered() {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe)
  const meter = await b.stripe.billing.meters.create({
    display_name: 'Calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  const product = await b.stripe.products.create({ name: 'API' })
  const price = await b.stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 2,
    recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
  })
  const { price: seat } = await monthlyPrice(b.stripe, 1000)
  return { ...b, customer, price, seat }
}

const grantParams = (customer: string, value: number, extra: Record<string, unknown> = {}) => ({
  customer,
  category: 'paid' as const,
  amount: { type: 'monetary' as const, monetary: { currency: 'usd', value } },
  applicability_config: { scope: { price_type: 'metered' as const } },
  ...extra,
})

describe('billing credits (official client, prefix Stripe)', () => {
  it('applies grants by priority to metered lines before payment, with their balance transactions and summary', async () => {
    const { sim, stripe, customer, price, seat } = await metered()
    const low = await stripe.billing.creditGrants.create(grantParams(customer.id, 500, { priority: 60, name: 'Later' }))
    const high = await stripe.billing.creditGrants.create(grantParams(customer.id, 300, { priority: 10 }))
    expect(low).toMatchObject({
      object: 'billing.credit_grant',
      customer: customer.id,
      priority: 60,
      effective_at: T0,
      voided_at: null,
    })
    expect(sim.admin.events({ type: 'billing.credit_grant.created' })).toHaveLength(2)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }, { price: seat.id }] })
    // The first invoice's seat is licensed: credits for metered prices do not touch it.
    expect(await stripe.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({ status: 'paid', amount_paid: 1000 })

    await stripe.v2.billing.meterEvents.create({
      event_name: 'api_call',
      payload: { stripe_customer_id: customer.id, value: '600' },
    })
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    await sim.clock.tickAsync((FEB28 - T0) * 1000 + HOUR)
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    // 600 calls = $12 metered (300 from the priority-10 grant, 500 from the other) + the $10 seat.
    expect(invoice).toMatchObject({ status: 'paid', subtotal: 2200, total: 1400, amount_paid: 1400 })
    const meteredLine = invoice?.lines.data.find((l) => l.pricing?.price_details?.price === price.id)
    expect(meteredLine?.pretax_credit_amounts?.map((c) => c.amount)).toEqual([300, 500])
    expect(invoice?.total_pretax_credit_amounts?.map((c) => c.amount)).toEqual([300, 500])

    const txns = await stripe.billing.creditBalanceTransactions.list({ customer: customer.id })
    expect(txns.data.map((t) => [t.type, t.credit?.type ?? t.debit?.type, t.credit_grant])).toEqual([
      ['debit', 'credits_applied', low.id],
      ['debit', 'credits_applied', high.id],
      ['credit', 'credits_granted', high.id],
      ['credit', 'credits_granted', low.id],
    ])
    expect(txns.data[0]?.debit?.credits_applied).toEqual({ invoice: invoice?.id, invoice_line_item: meteredLine?.id })
    const one = await stripe.billing.creditBalanceTransactions.retrieve(txns.data[0]?.id as string)
    expect(one.debit?.amount.monetary).toEqual({ currency: 'usd', value: 500 })
    const summary = await stripe.billing.creditBalanceSummaries.retrieve({
      customer: customer.id,
      filter: { type: 'applicability_scope', applicability_scope: { price_type: 'metered' } },
    })
    expect(summary.balances).toEqual([
      {
        available_balance: { monetary: { currency: 'usd', value: 0 }, type: 'monetary' },
        ledger_balance: { monetary: { currency: 'usd', value: 0 }, type: 'monetary' },
      },
    ])
  })

  it('expires and voids grants, taking what is left, and refuses changes after', async () => {
    const { stripe, customer } = await metered()
    const a = await stripe.billing.creditGrants.create(grantParams(customer.id, 700))
    const b = await stripe.billing.creditGrants.create(grantParams(customer.id, 400, { expires_at: T0 + 86_400 }))
    const updated = await stripe.billing.creditGrants.update(a.id, { metadata: { reason: 'promo' } })
    expect(updated.metadata).toEqual({ reason: 'promo' })
    const expired = await stripe.billing.creditGrants.expire(a.id)
    expect(expired.expires_at).toBe(T0)
    const voided = await stripe.billing.creditGrants.voidGrant(b.id)
    expect(voided.voided_at).toBe(T0)
    const txns = await stripe.billing.creditBalanceTransactions.list({ customer: customer.id })
    expect(
      txns.data.filter((t) => t.type === 'debit').map((t) => [t.credit_grant, t.debit?.type, t.debit?.amount.monetary?.value]),
    ).toEqual([
      [b.id, 'credits_voided', 400],
      [a.id, 'credits_expired', 700],
    ])
    const summary = await stripe.billing.creditBalanceSummaries.retrieve({
      customer: customer.id,
      filter: { type: 'credit_grant', credit_grant: a.id },
    })
    expect(summary.balances[0]?.available_balance.monetary?.value).toBe(0)
    expect((await caught(stripe.billing.creditGrants.voidGrant(b.id))).code).toBe('parameter_invalid')
    expect((await caught(stripe.billing.creditGrants.expire(a.id))).code).toBe('parameter_invalid')
  })

  it('refuses bad grants with the provider errors, making nothing', async () => {
    const { sim, stripe, customer, seat } = await metered()
    const before = sim.admin.events().length
    const cases = [
      [{ ...grantParams(customer.id, 100), customer: undefined }, 'parameter_missing', 'customer'],
      [grantParams('cus_missing', 100), 'resource_missing', 'customer'],
      [grantParams(customer.id, 0), 'parameter_invalid', 'amount[monetary][value]'],
      [
        grantParams(customer.id, 100, { applicability_config: { scope: { prices: [{ id: seat.id }] } } }),
        'parameter_invalid',
        'applicability_config[scope][prices][0][id]',
      ],
      [grantParams(customer.id, 100, { priority: 101 }), 'parameter_invalid', 'priority'],
      [grantParams(customer.id, 100, { expires_at: T0 - 10 }), 'parameter_invalid', 'expires_at'],
    ] as const
    for (const [params, code, param] of cases) {
      const error = await caught(stripe.billing.creditGrants.create(params as never))
      expect([error.statusCode, error.code, error.param]).toEqual([400, code, param])
    }
    expect(sim.admin.events().length).toBe(before)
    expect((await stripe.billing.creditGrants.list({ customer: customer.id })).data).toEqual([])
    expect((await caught(stripe.billing.creditBalanceTransactions.retrieve('credbtxn_missing'))).statusCode).toBe(404)
  })
})
