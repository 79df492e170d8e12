import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'

const running: ServedCli[] = []
afterAll(async () => {
  for (const r of running.reverse()) await r.stop()
})

describe('serve answers the connect host OAuth endpoints', () => {
  it('connects, exchanges and deauthorizes through the official client, the connect host sent to the served port', async () => {
    const served = await startServeCli(['--header-prefix', 'Stripe', '--admin-token', 'none'])
    running.push(served)
    const origin = `http://127.0.0.1:${served.port}`
    // The client names connect.stripe.com for OAuth whatever its host option: send every host to serve.
    const toServe: typeof fetch = (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
      return fetch(`${origin}${url.pathname}${url.search}`, init)
    }
    const stripe = new Stripe(served.key, { httpClient: Stripe.createFetchHttpClient(toServe), maxNetworkRetries: 0 })
    const account = await stripe.accounts.retrieveCurrent()
    const clientId = `ca_${account.id.slice(5)}`
    const page = (await (await toServe(stripe.oauth.authorizeUrl({ client_id: clientId, scope: 'read_write' }))).json()) as {
      code: string
    }
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: page.code })
    expect(token.stripe_user_id).toMatch(/^acct_/)
    await stripe.oauth.deauthorize({ client_id: clientId, stripe_user_id: String(token.stripe_user_id) })
    // Connect events are the connected account's, not in the platform's /v1/events: the admin API lists every one.
    const admin = (await (await fetch(`${origin}/__sim/events`)).json()) as { data: { type: string; account: string }[] }
    const ended = admin.data.filter((e) => e.type === 'account.application.deauthorized')
    expect(ended.map((e) => e.account)).toEqual([token.stripe_user_id])
    await expect(stripe.customers.list({}, { stripeAccount: String(token.stripe_user_id) })).rejects.toMatchObject({
      statusCode: 403,
    })
  }, 60_000)
})
