import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

function setup(seed: number) {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  const clientId = `ca_${sim.platform.id.slice(5)}`
  return { sim, stripe, clientId }
}

/** What the user's browser gets from the authorize page the client's URL names. */
async function authorizeCode(sim: ReturnType<typeof setup>['sim'], stripe: Stripe, clientId: string): Promise<any> {
  const url = stripe.oauth.authorizeUrl({
    client_id: clientId,
    scope: 'read_write',
    state: 's1',
    redirect_uri: 'https://app.example/cb',
  })
  expect(url).toMatch(/^https:\/\/connect\.stripe\.com\/oauth\/authorize\?/)
  const res = await sim.fetch(url)
  expect(res.status).toBe(200)
  return res.json()
}

describe('Connect OAuth on the connect host', () => {
  it('connects a Standard account: authorize page, code exchange, refresh, and API calls with the access token', async () => {
    const { sim, stripe, clientId } = setup(41)
    const page = await authorizeCode(sim, stripe, clientId)
    expect(page.redirect).toBe(`https://app.example/cb?code=${page.code}&scope=read_write&state=s1`)
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: page.code })
    expect(token).toMatchObject({
      stripe_user_id: page.stripe_user_id,
      token_type: 'bearer',
      scope: 'read_write',
      livemode: false,
    })
    expect(token.access_token).toMatch(/^sk_test_/)
    const again = await stripe.oauth.token({ grant_type: 'refresh_token', refresh_token: String(token.refresh_token) })
    expect(again.access_token).toBe(token.access_token)
    // The platform acts for the account, and the access token is the account's own key.
    const asPlatform = await stripe.customers.create({ email: 'x@example.com' }, { stripeAccount: token.stripe_user_id })
    const own = new Stripe(token.access_token as string, {
      httpClient: Stripe.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })
    expect((await own.customers.retrieve(asPlatform.id)).id).toBe(asPlatform.id)
  })

  it('refuses a bad code with the provider OAuth error', async () => {
    const { stripe } = setup(42)
    const error = await stripe.oauth.token({ grant_type: 'authorization_code', code: 'ac_nope' }).then(
      () => undefined,
      (e: Stripe.errors.StripeError) => e,
    )
    expect(error?.type).toBe('StripeInvalidGrantError')
    expect(error?.statusCode).toBe(400)
    expect(error?.message).toBe('Authorization code does not exist: ac_nope')
  })

  it('deauthorizes: emits account.application.deauthorized and refuses later calls as the account', async () => {
    const { sim, stripe, clientId } = setup(43)
    const page = await authorizeCode(sim, stripe, clientId)
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: page.code })
    const account = String(token.stripe_user_id)
    expect(await stripe.oauth.deauthorize({ client_id: clientId, stripe_user_id: account })).toMatchObject({
      stripe_user_id: account,
    })
    const [event] = sim.admin.events({ type: 'account.application.deauthorized' })
    expect(event?.body).toMatchObject({ account, data: { object: { id: clientId, object: 'application' } } })
    const refused = await stripe.customers.list({}, { stripeAccount: account }).then(
      () => undefined,
      (e: Stripe.errors.StripeError) => e,
    )
    expect(refused?.statusCode).toBe(403)
    expect(refused?.code).toBe('account_invalid')
    expect(refused?.message).toMatch(
      new RegExp(
        `does not have access to account '${account}' \\(or that account does not exist\\)\\. Application access may have been revoked\\.$`,
      ),
    )
    await expect(stripe.customers.retrieve('cus_nope', {}, { stripeAccount: account })).rejects.toMatchObject({
      statusCode: 403,
      code: 'account_invalid',
    })
    const own = new Stripe(token.access_token as string, {
      httpClient: Stripe.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })
    await expect(own.customers.list()).rejects.toMatchObject({ statusCode: 401 })
    await expect(stripe.oauth.token({ grant_type: 'authorization_code', code: page.code })).rejects.toMatchObject({
      type: 'StripeInvalidGrantError',
    })
  })

  it('spends an authorization code on its exchange: a second exchange is refused with invalid_grant', async () => {
    const { sim, stripe, clientId } = setup(44)
    const page = await authorizeCode(sim, stripe, clientId)
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: page.code })
    const error = await stripe.oauth.token({ grant_type: 'authorization_code', code: page.code }).then(
      () => undefined,
      (e: Stripe.errors.StripeError) => e,
    )
    expect(error?.type).toBe('StripeInvalidGrantError')
    expect(error?.statusCode).toBe(400)
    expect(error?.message).toBe(
      'This authorization code has already been used. All tokens issued with this code have been revoked.',
    )
    // The refresh token still answers, and a snapshot keeps the code spent.
    const again = await stripe.oauth.token({ grant_type: 'refresh_token', refresh_token: String(token.refresh_token) })
    expect(again.stripe_user_id).toBe(token.stripe_user_id)
    const fork = sim.fork()
    const forked = new Stripe(sim.platform.secretKey.test, {
      httpClient: Stripe.createFetchHttpClient(fork.fetch),
      maxNetworkRetries: 0,
    })
    await expect(forked.oauth.token({ grant_type: 'authorization_code', code: page.code })).rejects.toMatchObject({
      type: 'StripeInvalidGrantError',
    })
  })

  it('refuses reads for an account never connected without the revoked sentence', async () => {
    const { stripe } = setup(45)
    const error = await stripe.customers.list({}, { stripeAccount: 'acct_1NeverConnected0' }).then(
      () => undefined,
      (e: Stripe.errors.StripeError) => e,
    )
    expect(error?.statusCode).toBe(403)
    expect(error?.message).toMatch(/\(or that account does not exist\)\.$/)
  })
})
