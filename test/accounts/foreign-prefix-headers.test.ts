import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { form } from './helpers.js'

/**
 * The official clients send `Stripe-Account`, `Stripe-Version` and `Stripe-Context` whatever prefix a
 * simulator speaks. A scoped header under the other known prefix is honoured exactly as the own one,
 * never ignored (a Connect test must not pass against the platform); the same header under both
 * prefixes with different values is refused, naming both, and changes nothing.
 */
function world(headerPrefix: 'Service' | 'Stripe') {
  const sim = createSimulator({ seed: 5, headerPrefix, limits: false })
  const key = sim.platform.secretKey.test
  const stripe = new Stripe(key, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
  const connected = sim.admin.createAccount({ email: 'shop@example.com' })
  return { sim, key, stripe, connected }
}

describe('scoped headers under the other prefix', () => {
  it("acts for the connected account the official client's stripeAccount names, with the default prefix", async () => {
    const { stripe, connected } = world('Service')
    const made = await stripe.customers.create({ email: 'theirs@example.com' }, { stripeAccount: connected.id })
    const theirs = await stripe.customers.list({}, { stripeAccount: connected.id })
    const platform = await stripe.customers.list()
    expect(theirs.data.map((c) => c.id)).toEqual([made.id])
    expect(platform.data).toEqual([])
  })

  it.each([
    ['Service', 'Stripe'],
    ['Stripe', 'Service'],
  ] as const)('honours %s-prefixed simulators receiving %s-Account, -Version and -Context', async (own, other) => {
    const { sim, key, connected } = world(own)
    const made = await form(sim, key, 'POST', '/v1/customers', { email: 'a@example.com' }, { [`${other}-Account`]: connected.id })
    expect(made.status).toBe(200)
    const asConnected = await form(sim, key, 'GET', `/v1/customers/${made.body.id}`, undefined, {
      [`${other}-Context`]: connected.id,
    })
    expect(asConnected.status).toBe(200)
    expect((await form(sim, key, 'GET', `/v1/customers/${made.body.id}`)).status).toBe(404)
    const pinned = await form(sim, key, 'GET', '/v1/balance', undefined, { [`${other}-Version`]: '2022-11-15' })
    expect(pinned.headers.get(`${own}-Version`)).toBe('2022-11-15')
    const refused = await form(sim, key, 'GET', '/v1/balance', undefined, { [`${other}-Version`]: '1999-01-01' })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe(`Invalid ${other} API version: 1999-01-01`)
  })

  it('refuses the same header under both prefixes with different values, naming both, and changes nothing', async () => {
    const { sim, key, connected } = world('Service')
    const conflict = await form(
      sim,
      key,
      'POST',
      '/v1/customers',
      { email: 'b@example.com' },
      {
        'Service-Account': connected.id,
        'Stripe-Account': sim.platform.id,
      },
    )
    expect(conflict.status).toBe(400)
    expect(conflict.body.error.code).toBe('scoped_header_conflict')
    expect(conflict.body.error.message).toContain('Service-Account')
    expect(conflict.body.error.message).toContain('Stripe-Account')
    expect((await form(sim, key, 'GET', '/v1/customers')).body.data).toEqual([])
    expect((await form(sim, key, 'GET', '/v1/customers', undefined, { 'Service-Account': connected.id })).body.data).toEqual([])
    const same = await form(
      sim,
      key,
      'POST',
      '/v1/customers',
      { email: 'c@example.com' },
      {
        'Service-Account': connected.id,
        'Stripe-Account': connected.id,
      },
    )
    expect(same.status).toBe(200)
  })
})
