import { describe, expect, it } from 'vitest'
import { pinned } from './helpers.js'

type Refusal = { statusCode?: number; type?: string; param?: string; message?: string }

async function refusal(p: Promise<unknown>): Promise<Refusal | undefined> {
  return p.then(
    () => undefined,
    (e: Refusal) => e,
  )
}

describe('expanding a field newer than the pinned version', () => {
  it('refuses latest_charge of a payment intent at 2022-08-01 (added at 2022-11-15) with 400 on expand', async () => {
    const { stripe } = pinned('2022-08-01')
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const error = await refusal(stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] }))
    expect(error).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      param: 'expand',
      message: 'This property cannot be expanded (latest_charge).',
    })
  })

  it('refuses it on a create before anything is made, and in a list through data.', async () => {
    const { stripe } = pinned('2022-08-01')
    const error = await refusal(
      stripe.paymentIntents.create({ amount: 1000, currency: 'usd', expand: ['latest_charge'] } as never),
    )
    expect(error).toMatchObject({ statusCode: 400, param: 'expand' })
    expect((await stripe.paymentIntents.list()).data).toEqual([])
    const listed = await refusal(stripe.paymentIntents.list({ expand: ['data.latest_charge'] }))
    expect(listed).toMatchObject({ statusCode: 400, message: 'This property cannot be expanded (data.latest_charge).' })
  })

  it('takes the same path at a version that has the field, and fields the pinned version had', async () => {
    const { stripe } = pinned('2022-11-15')
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const got = await stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] })
    expect((got.latest_charge as { object?: string }).object).toBe('charge')
    const old = pinned('2022-08-01').stripe
    const customer = await old.customers.create({})
    const withCustomer = await old.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      customer: customer.id,
      expand: ['customer'],
    })
    expect((withCustomer.customer as { id?: string }).id).toBe(customer.id)
  })

  it('refuses a newer field of an expanded object along the path', async () => {
    const { stripe } = pinned('2026-06-24.dahlia')
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const refund = await stripe.refunds.create({ payment_intent: pi.id })
    // A refund's payment_method came at 2026-07-29.dahlia.
    const error = await refusal(stripe.refunds.retrieve(refund.id, { expand: ['payment_method'] }))
    expect(error).toMatchObject({ statusCode: 400, message: 'This property cannot be expanded (payment_method).' })
    expect((await stripe.refunds.retrieve(refund.id, { expand: ['payment_intent'] })).payment_intent).toMatchObject({ id: pi.id })
  })
})
