import { describe, expect, it } from 'vitest'
import { setup } from './helpers.js'

/** The error the official client raised, as `[status, code, param]`. */
async function refusal(p: Promise<unknown>): Promise<[number, string, string | undefined, string]> {
  try {
    await p
  } catch (e) {
    const err = e as { statusCode: number; code: string; param?: string; message: string }
    return [err.statusCode, err.code, err.param, err.message]
  }
  throw new Error('expected a refusal')
}

describe('parameters and paths that name other objects are checked (official client)', () => {
  it('rejects a checkout session naming a missing price with 400 resource_missing on its param, creating nothing', async () => {
    const { stripe } = setup()
    const got = await refusal(
      stripe.checkout.sessions.create({
        mode: 'payment',
        success_url: 'https://example.com/ok',
        line_items: [{ price: 'price_missing', quantity: 1 }],
      }),
    )
    expect(got).toEqual([400, 'resource_missing', 'line_items[0][price]', "No such price: 'price_missing'"])
    expect((await stripe.checkout.sessions.list()).data).toEqual([])
  })

  it('rejects a plan naming a missing product with 400 resource_missing, creating nothing', async () => {
    const { stripe } = setup()
    const got = await refusal(stripe.plans.create({ product: 'prod_missing', amount: 100, currency: 'usd', interval: 'month' }))
    expect(got).toEqual([400, 'resource_missing', 'product', "No such product: 'prod_missing'"])
    expect((await stripe.plans.list()).data).toEqual([])
  })

  it('rejects an account link for an account that does not exist with 400 resource_missing', async () => {
    const { stripe } = setup()
    const got = await refusal(
      stripe.accountLinks.create({
        account: 'acct_missing',
        type: 'account_onboarding',
        refresh_url: 'https://example.com/r',
        return_url: 'https://example.com/ok',
      }),
    )
    expect(got.slice(0, 3)).toEqual([400, 'resource_missing', 'account'])
  })

  it('accepts an account link for a connected account of the platform', async () => {
    const { stripe } = setup()
    const acct = await stripe.accounts.create({ type: 'express' })
    const link = await stripe.accountLinks.create({
      account: acct.id,
      type: 'account_onboarding',
      refresh_url: 'https://example.com/r',
      return_url: 'https://example.com/ok',
    })
    expect(link.object).toBe('account_link')
  })

  it('rejects listing balance transactions and tax ids of a missing customer with 404 on the path', async () => {
    const { stripe } = setup()
    expect(await refusal(stripe.customers.listBalanceTransactions('cus_missing'))).toEqual([
      404,
      'resource_missing',
      'id',
      "No such customer: 'cus_missing'",
    ])
    expect((await refusal(stripe.customers.listTaxIds('cus_missing'))).slice(0, 2)).toEqual([404, 'resource_missing'])
  })

  it('rejects an object of another account as missing (same account and mode only)', async () => {
    const { sim, stripe } = setup()
    const product = await stripe.products.create({ name: 'Live only' })
    const live = new (stripe.constructor as any)(sim.platform.secretKey.live, {
      httpClient: (stripe as any)._api.httpClient,
      maxNetworkRetries: 0,
    })
    const got = await refusal(live.prices.create({ product: product.id, currency: 'usd', unit_amount: 100 }))
    expect(got.slice(0, 3)).toEqual([400, 'resource_missing', 'product'])
  })

  it('checks nested ids in arrays: a subscription item price that does not exist changes nothing', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'r@example.com' })
    const got = await refusal(stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'price_nope' }] }))
    expect(got.slice(0, 3)).toEqual([400, 'resource_missing', 'items[0][price]'])
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([])
  })
})
