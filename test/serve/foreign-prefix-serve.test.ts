import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'

/** Over HTTP, `serve` with its default prefix honours the official client's `Stripe-Account`. */
describe('serve with its default header prefix', () => {
  let served: ServedCli
  let stripe: Stripe
  beforeAll(async () => {
    served = await startServeCli(['--admin-token', 'none', '--no-limits'])
    stripe = new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http', maxNetworkRetries: 0 })
  })
  afterAll(async () => {
    await served.stop()
  })

  it("acts for the connected account the official client's stripeAccount names", async () => {
    const account = await stripe.accounts.create({ type: 'custom', country: 'US', email: 'shop@example.com' })
    const made = await stripe.customers.create({ email: 'theirs@example.com' }, { stripeAccount: account.id })
    const theirs = await stripe.customers.list({}, { stripeAccount: account.id })
    const platform = await stripe.customers.list()
    expect(theirs.data.map((c) => c.id)).toEqual([made.id])
    expect(platform.data.map((c) => c.id)).not.toContain(made.id)
  })
})
