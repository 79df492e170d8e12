import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

function client() {
  const sim = createSimulator({ seed: 11, headerPrefix: 'Stripe' })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  return { sim, stripe }
}

describe('the official stripe client through sim.fetch (prefix Stripe)', () => {
  it('makes a v1 call', async () => {
    const { sim, stripe } = client()
    const account = await stripe.accounts.retrieveCurrent()
    expect(account.id).toBe(sim.platform.id)
  })

  it('makes a v1 call for a connected account with stripeAccount', async () => {
    const { sim, stripe } = client()
    const connected = sim.admin.createAccount({ email: 'shop@example.com' })
    const account = await stripe.accounts.retrieveCurrent({}, { stripeAccount: connected.id })
    expect(account.id).toBe(connected.id)
    expect(account.email).toBe('shop@example.com')
  })

  it('creates a connected account with a form body and retrieves it by path', async () => {
    const { stripe } = client()
    const created = await stripe.accounts.create({ type: 'custom', email: 'c@x.test', metadata: { tier: 'gold' } })
    const fetched = await stripe.accounts.retrieve(created.id)
    expect(fetched).toMatchObject({ id: created.id, email: 'c@x.test', metadata: { tier: 'gold' } })
  })

  it('makes a v2 call', async () => {
    const { stripe } = client()
    const session = await stripe.v2.billing.meterEventSession.create()
    expect(session.object).toBe('v2.billing.meter_event_session')
    expect(session.livemode).toBe(false)
    expect(Date.parse(session.expires_at) - Date.parse(session.created)).toBe(15 * 60_000)
  })

  it('maps a foreign stripeAccount to its permission error and a bad key to its authentication error', async () => {
    const { sim, stripe } = client()
    await expect(stripe.accounts.retrieveCurrent({}, { stripeAccount: 'acct_nope' })).rejects.toBeInstanceOf(
      Stripe.errors.StripePermissionError,
    )
    const bad = new Stripe('sk_test_wrong', { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
    await expect(bad.accounts.retrieveCurrent()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
  })

  it('replays its own idempotency key on a retried create', async () => {
    const { sim, stripe } = client()
    const before = sim.admin.accounts().length
    const a = await stripe.accounts.create({ email: 'x@y.test' }, { idempotencyKey: 'same' })
    const b = await stripe.accounts.create({ email: 'x@y.test' }, { idempotencyKey: 'same' })
    expect(b.id).toBe(a.id)
    expect(sim.admin.accounts().length).toBe(before + 1)
    await expect(stripe.accounts.create({ email: 'other@y.test' }, { idempotencyKey: 'same' })).rejects.toBeInstanceOf(
      Stripe.errors.StripeIdempotencyError,
    )
  })
})
