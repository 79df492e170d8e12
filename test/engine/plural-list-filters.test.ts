import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe('plural list filters', () => {
  it('lists only the prices whose lookup_key is one of lookup_keys, as the subscription samples ask', async () => {
    const { stripe } = setup()
    const product = await stripe.products.create({ name: 'Plan' })
    const price = (lookup_key: string) =>
      stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 500,
        lookup_key,
        recurring: { interval: 'month' },
      })
    const basic = await price('basic')
    const premium = await price('premium')
    await price('other')
    const found = await stripe.prices.list({ lookup_keys: ['premium', 'basic'], expand: ['data.product'] })
    expect(found.data.map((p) => p.id).sort()).toEqual([basic.id, premium.id].sort())
    expect(await stripe.prices.list({ lookup_keys: ['none'] })).toMatchObject({ data: [] })
    expect((await stripe.prices.list()).data).toHaveLength(3)
  })

  it('lists only the products named by ids', async () => {
    const { stripe } = setup()
    const a = await stripe.products.create({ name: 'A' })
    await stripe.products.create({ name: 'B' })
    expect((await stripe.products.list({ ids: [a.id] })).data.map((p) => p.id)).toEqual([a.id])
  })
})
