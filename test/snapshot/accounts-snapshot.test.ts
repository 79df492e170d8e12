import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'

function clientOf(sim: Simulator): Stripe {
  return new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
}

describe('accounts across snapshot, restore and fork', () => {
  it('continues connected accounts, their keys and their objects exactly, and a fork changes only itself', async () => {
    const sim = createSimulator({ seed: 51, headerPrefix: 'Stripe', limits: false })
    const stripe = clientOf(sim)
    const made = await stripe.accounts.create({
      type: 'custom',
      email: 'snap@example.com',
      capabilities: { transfers: { requested: true } },
    })
    const operatorMade = sim.admin.createAccount({ email: 'operator@example.com' })
    const me = await stripe.accounts.retrieveCurrent()

    const restored = createSimulator({ from: sim.snapshot() })
    const again = clientOf(restored)
    expect(await again.accounts.retrieve(made.id)).toEqual(made)
    expect(await again.accounts.retrieveCurrent()).toEqual(me)
    // Made from the registry on first need, after the restore as before it.
    expect(await again.accounts.retrieve(operatorMade.id)).toEqual(await stripe.accounts.retrieve(operatorMade.id))
    // The connected account's own key still authenticates it.
    const own = new Stripe(operatorMade.keys.secret.test, {
      httpClient: Stripe.createFetchHttpClient(restored.fetch),
      maxNetworkRetries: 0,
    })
    expect((await own.accounts.retrieveCurrent()).email).toBe('operator@example.com')

    const fork = sim.fork()
    await clientOf(fork).accounts.update(made.id, { email: 'forked@example.com', metadata: { in: 'fork' } })
    expect((await clientOf(fork).accounts.retrieve(made.id)).email).toBe('forked@example.com')
    expect(await stripe.accounts.retrieve(made.id)).toEqual(made)
    expect(restored.trace.hash()).not.toBe(fork.trace.hash())
  })

  it('gives the same account objects and trace for the same seed and requests', async () => {
    const run = async () => {
      const sim = createSimulator({ seed: 52, headerPrefix: 'Stripe', limits: false })
      const stripe = clientOf(sim)
      const a = await stripe.accounts.create({ type: 'express', capabilities: { card_payments: { requested: true } } })
      await stripe.accounts.update(a.id, { business_type: 'company', company: { name: 'Same' } })
      return { listed: await stripe.accounts.list(), hash: sim.trace.hash() }
    }
    const [first, second] = [await run(), await run()]
    expect(second).toEqual(first)
  })
})
