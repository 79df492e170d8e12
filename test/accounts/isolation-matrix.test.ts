import { describe, expect, it } from 'vitest'
import { client, form, json, setup, stateOf } from './helpers.js'

/**
 * Objects of one connected account in test mode, reached by every kind of actor on every
 * endpoint: only the owner sees them; another account, the other mode or a platform that does not
 * own the account gets 404 resource_missing or 403, and nothing changes.
 */
async function world() {
  const { sim, key } = setup(11)
  const connected = sim.admin.createAccount({ email: 'shop@example.com' })
  const sibling = sim.admin.createAccount({ email: 'sibling@example.com' })
  const foreign = sim.admin.createAccount({ platform: undefined, email: 'other-platform@example.com' })
  const asOwner = { 'Stripe-Account': connected.id }
  const p = async (path: string, body: Record<string, string>) => (await form(sim, key, 'POST', path, body, asOwner)).body
  const customer = await p('/v1/customers', { email: 'c@example.com', payment_method: 'pm_card_visa' })
  const intent = await p('/v1/payment_intents', { amount: '2000', currency: 'usd', customer: customer.id })
  const paid = await p('/v1/payment_intents', {
    amount: '2000',
    currency: 'usd',
    payment_method: 'pm_card_visa',
    confirm: 'true',
  })
  const product = await p('/v1/products', { name: 'Widget' })
  const osp = (
    await json(
      sim,
      key,
      'POST',
      '/v2/payments/off_session_payments',
      {
        amount: { value: 1000, currency: 'usd' },
        cadence: 'recurring',
        customer: customer.id,
        payment_method: 'pm_card_visa',
      },
      asOwner,
    )
  ).body
  const pm = sim.service.paymentMethods.ofCustomer({ account: connected.id, mode: 'test' }, customer.id)[0]?.id as string
  const charge = paid.latest_charge as string
  const txn = sim.service.ledger.transactions({ account: connected.id, mode: 'test' })[0]?.id as string
  const event = sim.service.events.list({ account: connected.id, mode: 'test' }, 'snapshot')[0]?.id as string
  const actors = {
    'the platform acting for it': { key, headers: asOwner, expect: 200 },
    'its own key': { key: connected.keys.secret.test, headers: {}, expect: 200 },
    'the platform without the header': { key, headers: {}, expect: 404 },
    'the platform in live mode': { key: sim.platform.secretKey.live, headers: asOwner, expect: 404 },
    'a sibling connected account': { key, headers: { 'Stripe-Account': sibling.id }, expect: 404 },
    "the sibling's own key": { key: sibling.keys.secret.test, headers: {}, expect: 404 },
    'a platform that does not own it': { key: foreign.keys.secret.test, headers: asOwner, expect: 403 },
    'another platform on its own': { key: foreign.keys.secret.test, headers: {}, expect: 404 },
  } as const
  const reads: [string, string][] = [
    ['v1', `/v1/customers/${customer.id}`],
    ['v1', `/v1/payment_intents/${intent.id}`],
    ['v1', `/v1/products/${product.id}`],
    ['v1', `/v1/charges/${charge}`],
    ['v1', `/v1/payment_methods/${pm}`],
    ['v1', `/v1/balance_transactions/${txn}`],
    ['v1', `/v1/events/${event}`],
    ['v2', `/v2/payments/off_session_payments/${osp.id}`],
  ]
  const writes: [string, string, Record<string, unknown>, string][] = [
    ['v1', `/v1/customers/${customer.id}`, { name: 'hijack' }, 'POST'],
    ['v1', `/v1/customers/${customer.id}`, {}, 'DELETE'],
    ['v1', `/v1/payment_intents/${intent.id}`, { amount: '999' }, 'POST'],
    ['v1', `/v1/payment_intents/${intent.id}/confirm`, { payment_method: 'pm_card_visa' }, 'POST'],
    ['v1', `/v1/payment_intents/${intent.id}/cancel`, {}, 'POST'],
    ['v1', `/v1/payment_intents/${paid.id}/capture`, {}, 'POST'],
    ['v1', `/v1/products/${product.id}`, { name: 'hijack' }, 'POST'],
    ['v1', `/v1/payment_methods/${pm}/detach`, {}, 'POST'],
    ['v2', `/v2/payments/off_session_payments/${osp.id}/cancel`, {}, 'POST'],
  ]
  const lists = ['/v1/customers', '/v1/payment_intents', '/v1/products', '/v1/charges', '/v1/events', '/v1/balance_transactions']
  return { sim, actors, reads, writes, lists, connected, customer, intent, product, osp }
}

describe('isolation matrix (account x mode x endpoint)', async () => {
  const w = await world()
  const call = (
    style: string,
    key: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Record<string, unknown>,
  ) =>
    style === 'v1'
      ? form(w.sim, key, method, path, body as Record<string, string> | undefined, headers)
      : json(w.sim, key, method, path, method === 'GET' ? undefined : body, headers)

  for (const [name, actor] of Object.entries(w.actors)) {
    it(`answers ${actor.expect} to ${name} on every read`, async () => {
      for (const [style, path] of w.reads) {
        const res = await call(style, actor.key, 'GET', path, actor.headers)
        expect({ path, status: res.status }).toEqual({ path, status: actor.expect })
        if (actor.expect === 404) expect(res.body.error.code).toBe('resource_missing')
        if (actor.expect === 403) expect(res.body.error.type).toBe('invalid_request_error')
      }
    })

    if (actor.expect !== 200) {
      it(`refuses every write by ${name} with ${actor.expect} and changes nothing`, async () => {
        const before = stateOf(w.sim)
        for (const [style, path, body, method] of w.writes) {
          const res = await call(style, actor.key, method, path, actor.headers, body)
          expect({ method, path, status: res.status }).toEqual({ method, path, status: actor.expect })
        }
        expect(stateOf(w.sim)).toBe(before)
      })

      if (actor.expect === 404) {
        it(`shows ${name} none of the account's objects in lists or balance`, async () => {
          for (const path of w.lists) {
            const res = await call('v1', actor.key, 'GET', path, actor.headers)
            expect(res.status).toBe(200)
            const ids = res.body.data.map((o: { id: string }) => o.id)
            for (const id of [w.customer.id, w.intent.id, w.product.id]) expect(ids).not.toContain(id)
          }
          const osps = await call('v2', actor.key, 'GET', '/v2/payments/off_session_payments', actor.headers)
          expect(osps.body.data).toEqual([])
          const balance = await call('v1', actor.key, 'GET', '/v1/balance', actor.headers)
          expect(balance.body.pending).toEqual([{ amount: 0, currency: 'usd', source_types: { card: 0 } }])
        })

        it(`refuses ${name} the account's customer as a parameter`, async () => {
          const before = stateOf(w.sim)
          const res = await call('v1', actor.key, 'POST', '/v1/payment_intents', actor.headers, {
            amount: '2000',
            currency: 'usd',
            customer: w.customer.id,
          })
          expect(res.status).toBe(400)
          expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'customer' })
          expect(stateOf(w.sim)).toBe(before)
        })
      }
    }
  }

  it('shows the owner its objects in its lists', async () => {
    const res = await form(w.sim, w.connected.keys.secret.test, 'GET', '/v1/customers')
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([w.customer.id])
  })
})

describe('isolation through the official client', () => {
  it('raises a permission error for a connected account the platform does not own and a 404 across modes', async () => {
    const { sim, stripe } = setup(12)
    const mine = sim.admin.createAccount()
    const foreign = sim.admin.createAccount({ platform: undefined })
    const theirs = sim.admin.createAccount({ platform: foreign.id })
    const c = await stripe.customers.create({ email: 'a@example.com' }, { stripeAccount: mine.id })
    expect((await stripe.customers.retrieve(c.id, {}, { stripeAccount: mine.id })).id).toBe(c.id)
    await expect(stripe.customers.retrieve(c.id)).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404 })
    await expect(stripe.customers.create({ email: 'x@example.com' }, { stripeAccount: theirs.id })).rejects.toMatchObject({
      type: 'StripePermissionError',
      statusCode: 403,
    })
    const live = client(sim, sim.platform.secretKey.live)
    await expect(live.customers.retrieve(c.id, {}, { stripeAccount: mine.id })).rejects.toMatchObject({ statusCode: 404 })
    await expect(stripe.accounts.retrieve(theirs.id)).rejects.toMatchObject({ statusCode: 403 })
    const listed = await stripe.accounts.list()
    expect(listed.data.map((a) => a.id)).toEqual([mine.id])
  })
})
