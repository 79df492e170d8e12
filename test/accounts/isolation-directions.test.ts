import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { client, form, setup, stateOf } from './helpers.js'

/**
 * Ownership runs one way: a platform acts for the connected accounts it owns, and only when it
 * names one (`Stripe-Account`, or the account id in the path). A connected account never acts for
 * its platform, a sibling or an unrelated account, whatever header it sends; an unrelated platform
 * never acts for ours. Each refusal is a 403 that changes nothing.
 */
async function world() {
  const { sim, stripe, key } = setup(21)
  const connected = sim.admin.createAccount({ email: 'shop@example.com' })
  const sibling = sim.admin.createAccount({ email: 'sibling@example.com' })
  const stranger = sim.admin.createAccount({ platform: undefined, email: 'stranger@example.com' })
  const customer = await stripe.customers.create({ email: 'platform-customer@example.com' })
  const intent = await stripe.paymentIntents.create({
    amount: 2000,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
  })
  const theirs = await stripe.customers.create({ email: 'connected-customer@example.com' }, { stripeAccount: connected.id })
  return { sim, stripe, key, connected, sibling, stranger, customer, intent, theirs }
}

/** Every read and write a request could make on the platform's objects. */
function platformCalls(w: Awaited<ReturnType<typeof world>>): [string, string, Record<string, string> | undefined][] {
  return [
    ['GET', `/v1/customers/${w.customer.id}`, undefined],
    ['GET', '/v1/customers', undefined],
    ['GET', `/v1/payment_intents/${w.intent.id}`, undefined],
    ['GET', '/v1/balance', undefined],
    ['GET', '/v1/balance_transactions', undefined],
    ['GET', '/v1/account', undefined],
    ['GET', '/v1/accounts', undefined],
    ['POST', `/v1/customers/${w.customer.id}`, { name: 'hijacked' }],
    ['POST', '/v1/customers', { email: 'planted@example.com' }],
    ['DELETE', `/v1/customers/${w.customer.id}`, undefined],
    ['POST', `/v1/payment_intents/${w.intent.id}`, { description: 'hijacked' }],
    ['POST', '/v1/payouts', { amount: '100', currency: 'usd' }],
    ['POST', `/v1/accounts/${w.sim.platform.id}`, { email: 'hijacked@example.com' }],
  ]
}

describe('isolation, child to parent: a connected account cannot act for its platform', async () => {
  const w = await world()

  it('refuses its own key naming the platform in Stripe-Account with 403 on every read and write, and changes nothing', async () => {
    const before = stateOf(w.sim)
    for (const [method, path, body] of platformCalls(w)) {
      const res = await form(w.sim, w.connected.keys.secret.test, method, path, body, { 'Stripe-Account': w.sim.platform.id })
      expect({ method, path, status: res.status, code: res.body.error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'account_invalid',
      })
    }
    expect(stateOf(w.sim)).toBe(before)
  })

  it('refuses its own key naming the platform in Stripe-Context with 403', async () => {
    const res = await form(w.sim, w.connected.keys.secret.test, 'GET', `/v1/customers/${w.customer.id}`, undefined, {
      'Stripe-Context': w.sim.platform.id,
    })
    expect([res.status, res.body.error?.code]).toEqual([403, 'account_invalid'])
  })

  it('refuses its own key the platform account by path with 403', async () => {
    const res = await form(w.sim, w.connected.keys.secret.test, 'GET', `/v1/accounts/${w.sim.platform.id}`)
    expect([res.status, res.body.error?.code]).toEqual([403, 'account_invalid'])
  })

  it("raises the official client's permission error for its own key with stripeAccount set to the platform", async () => {
    const own = client(w.sim, w.connected.keys.secret.test)
    const asPlatform = { stripeAccount: w.sim.platform.id }
    await expect(own.customers.retrieve(w.customer.id, {}, asPlatform)).rejects.toBeInstanceOf(
      Stripe.errors.StripePermissionError,
    )
    await expect(own.balance.retrieve({}, asPlatform)).rejects.toBeInstanceOf(Stripe.errors.StripePermissionError)
    await expect(own.paymentIntents.retrieve(w.intent.id, {}, asPlatform)).rejects.toBeInstanceOf(
      Stripe.errors.StripePermissionError,
    )
    await expect(own.customers.update(w.customer.id, { name: 'hijacked' }, asPlatform)).rejects.toBeInstanceOf(
      Stripe.errors.StripePermissionError,
    )
    expect((await w.stripe.customers.retrieve(w.customer.id)) as Stripe.Customer).toMatchObject({ name: null })
  })

  it('shows its own key, without a header, only its own objects and balance', async () => {
    const own = client(w.sim, w.connected.keys.secret.test)
    await expect(own.customers.retrieve(w.customer.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' })
    await expect(own.paymentIntents.retrieve(w.intent.id)).rejects.toMatchObject({ statusCode: 404 })
    expect((await own.customers.list()).data.map((c) => c.id)).toEqual([w.theirs.id])
    const balance = await own.balance.retrieve()
    expect(balance.available).toEqual([{ amount: 0, currency: 'usd', source_types: { card: 0 } }])
    expect((await own.accounts.retrieveCurrent()).id).toBe(w.connected.id)
  })
})

describe('isolation, parent to child: a platform acts for its connected account only when it names it', async () => {
  const w = await world()

  it("reads and changes the connected account's objects with the header", async () => {
    const asConnected = { stripeAccount: w.connected.id }
    expect((await w.stripe.customers.retrieve(w.theirs.id, {}, asConnected)).id).toBe(w.theirs.id)
    const updated = await w.stripe.customers.update(w.theirs.id, { name: 'by the platform' }, asConnected)
    expect(updated.name).toBe('by the platform')
    expect((await w.stripe.accounts.retrieveCurrent({}, asConnected)).id).toBe(w.connected.id)
  })

  it("neither sees nor changes the connected account's objects without the header (404, nothing changed)", async () => {
    const before = stateOf(w.sim)
    await expect(w.stripe.customers.retrieve(w.theirs.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' })
    await expect(w.stripe.customers.update(w.theirs.id, { name: 'x' })).rejects.toMatchObject({ statusCode: 404 })
    await expect(w.stripe.customers.del(w.theirs.id)).rejects.toMatchObject({ statusCode: 404 })
    expect((await w.stripe.customers.list()).data.map((c) => c.id)).not.toContain(w.theirs.id)
    expect(stateOf(w.sim)).toBe(before)
  })

  it('answers an account path that differs from the account it acts for with 404 resource_missing', async () => {
    const res = await form(w.sim, w.key, 'GET', `/v1/accounts/${w.sibling.id}`, undefined, { 'Stripe-Account': w.connected.id })
    expect([res.status, res.body.error?.code]).toEqual([404, 'resource_missing'])
    const update = await form(
      w.sim,
      w.key,
      'POST',
      `/v1/accounts/${w.sibling.id}`,
      { email: 'x@example.com' },
      {
        'Stripe-Account': w.connected.id,
      },
    )
    expect([update.status, update.body.error?.code]).toEqual([404, 'resource_missing'])
  })
})

describe('isolation between unrelated accounts', async () => {
  const w = await world()

  it('refuses a sibling connected account naming the other in Stripe-Account with 403, and a stranger naming ours', async () => {
    const before = stateOf(w.sim)
    const actors: [string, string][] = [
      [w.sibling.keys.secret.test, w.connected.id],
      [w.connected.keys.secret.test, w.sibling.id],
      [w.stranger.keys.secret.test, w.sim.platform.id],
      [w.stranger.keys.secret.test, w.connected.id],
    ]
    for (const [key, target] of actors) {
      for (const [method, path, body] of [
        ['GET', `/v1/customers/${w.theirs.id}`, undefined],
        ['GET', '/v1/balance', undefined],
        ['POST', '/v1/customers', { email: 'planted@example.com' }],
        ['GET', `/v1/accounts/${target}`, undefined],
      ] as const) {
        const res = await form(w.sim, key, method, path, body, { 'Stripe-Account': target })
        expect({ target, path, status: res.status }).toEqual({ target, path, status: 403 })
      }
    }
    expect(stateOf(w.sim)).toBe(before)
  })

  it("lists no other platform's connected accounts", async () => {
    const strangers = client(w.sim, w.stranger.keys.secret.test)
    expect((await strangers.accounts.list()).data).toEqual([])
    const ours = (await w.stripe.accounts.list()).data.map((a) => a.id)
    expect(ours.sort()).toEqual([w.connected.id, w.sibling.id].sort())
  })
})
