import { describe, expect, it } from 'vitest'
import { stateOf } from '../accounts/helpers.js'
import { billingClient, caught, DAY, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

type Client = ReturnType<typeof billingClient>

async function activeSubscription({ stripe }: Client) {
  const { customer } = await payingCustomer(stripe)
  const { price } = await monthlyPrice(stripe, 1000)
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  return { customer, sub }
}

/** The invoices of `customer`, newest first, after the next period end and its grace hour. */
async function afterRenewal({ sim, stripe }: Client, customer: string) {
  await sim.clock.tickAsync(31 * DAY + 2 * HOUR)
  return (await stripe.invoices.list({ customer })).data
}

describe('pause_collection on subscriptions.update', () => {
  it('keep_as_draft: the subscription stays active and its renewal invoice stays a draft, never charged', async () => {
    const client = billingClient({ seed: 601 })
    const { customer, sub } = await activeSubscription(client)
    const paused = await client.stripe.subscriptions.update(sub.id, { pause_collection: { behavior: 'keep_as_draft' } })
    expect(paused.status).toBe('active')
    expect(paused.pause_collection).toEqual({ behavior: 'keep_as_draft', resumes_at: null })
    const [renewal] = await afterRenewal(client, customer.id)
    expect(renewal).toMatchObject({
      status: 'draft',
      auto_advance: false,
      billing_reason: 'subscription_cycle',
      amount_due: 1000,
    })
    await client.sim.clock.tickAsync(3 * DAY)
    expect((await client.stripe.invoices.retrieve(renewal?.id as string)).status).toBe('draft')
    expect(client.sim.admin.events({ type: 'invoice.paid' })).toHaveLength(1)
    // Collected later by hand.
    const paid = await client.stripe.invoices.pay(renewal?.id as string)
    expect(paid.status).toBe('paid')
  })

  it('mark_uncollectible and void: renewal invoices are finalized and marked uncollectible or voided at once', async () => {
    for (const [seed, behavior, status, event] of [
      [602, 'mark_uncollectible', 'uncollectible', 'invoice.marked_uncollectible'],
      [603, 'void', 'void', 'invoice.voided'],
    ] as const) {
      const client = billingClient({ seed })
      const { customer, sub } = await activeSubscription(client)
      await client.stripe.subscriptions.update(sub.id, { pause_collection: { behavior } })
      const [renewal] = await afterRenewal(client, customer.id)
      expect([renewal?.status, renewal?.billing_reason]).toEqual([status, 'subscription_cycle'])
      expect(client.sim.admin.events({ type: event })).toHaveLength(1)
      expect(client.sim.admin.events({ type: 'invoice.finalized' })).toHaveLength(2)
      expect(client.sim.admin.events({ type: 'payment_intent.succeeded' })).toHaveLength(1)
      expect((await client.stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    }
  })

  it('resumes collection by itself at resumes_at, and the next renewal is charged again', async () => {
    const client = billingClient({ seed: 604 })
    const { customer, sub } = await activeSubscription(client)
    const resumesAt = Math.floor(client.sim.clock.now / 1000) + 40 * 86_400
    await client.stripe.subscriptions.update(sub.id, { pause_collection: { behavior: 'void', resumes_at: resumesAt } })
    const [held] = await afterRenewal(client, customer.id)
    expect(held?.status).toBe('void')
    await client.sim.clock.tickAsync(10 * DAY)
    const resumed = await client.stripe.subscriptions.retrieve(sub.id)
    expect(resumed.pause_collection).toBeNull()
    const updates = client.sim.admin.events({ type: 'customer.subscription.updated' })
    expect(updates.at(-1)?.body.data).toMatchObject({ previous_attributes: { pause_collection: { behavior: 'void' } } })
    const [next] = await afterRenewal(client, customer.id)
    expect([next?.status, next?.amount_paid]).toEqual(['paid', 1000])
  })

  it("resumes collection when pause_collection is set to '' and refuses a bad behavior or a past resumes_at", async () => {
    const client = billingClient({ seed: 605 })
    const { customer, sub } = await activeSubscription(client)
    await client.stripe.subscriptions.update(sub.id, { pause_collection: { behavior: 'void' } })
    const before = stateOf(client.sim)
    const bad = await caught(client.stripe.subscriptions.update(sub.id, { pause_collection: { behavior: 'skip' as 'void' } }))
    expect([bad.statusCode, bad.param]).toEqual([400, 'pause_collection[behavior]'])
    const past = await caught(
      client.stripe.subscriptions.update(sub.id, { pause_collection: { behavior: 'void', resumes_at: 1 } }),
    )
    expect([past.statusCode, past.param]).toEqual([400, 'pause_collection[resumes_at]'])
    expect(stateOf(client.sim)).toBe(before)
    const back = await client.stripe.subscriptions.update(sub.id, { pause_collection: '' })
    expect(back.pause_collection).toBeNull()
    const [renewal] = await afterRenewal(client, customer.id)
    expect(renewal?.status).toBe('paid')
  })
})
