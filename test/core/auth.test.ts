import { describe, expect, it } from 'vitest'
import { API, errorOf, setup } from './helpers.js'

describe('authentication', () => {
  it('accepts HTTP Basic with the secret key as user name on /v1', async () => {
    const { sim, key } = setup()
    const basic = `Basic ${Buffer.from(`${key}:`).toString('base64')}`
    const res = await sim.fetch(`${API}/v1/account`, { headers: { Authorization: basic } })
    expect(res.status).toBe(200)
  })

  it('refuses HTTP Basic on /v2 with 401', async () => {
    const { sim, key } = setup()
    const basic = `Basic ${Buffer.from(`${key}:`).toString('base64')}`
    const res = await sim.fetch(`${API}/v2/billing/meter_event_session`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
    expect((await errorOf(res)).message).toContain('Bearer')
  })

  it('answers a missing key with 401', async () => {
    const { sim } = setup()
    const res = await sim.fetch(`${API}/v1/account`)
    expect(res.status).toBe(401)
    expect((await errorOf(res)).message).toContain('did not provide an API key')
  })

  it('answers an unknown key with 401 without echoing the whole key', async () => {
    const { sim } = setup()
    const res = await sim.fetch(`${API}/v1/account`, { headers: { Authorization: 'Bearer sk_test_1234567890abcdefXYZ' } })
    expect(res.status).toBe(401)
    expect((await errorOf(res)).message).not.toContain('sk_test_1234567890abcdefXYZ')
  })

  it('refuses a publishable key on a server endpoint', async () => {
    const { sim } = setup()
    const res = await sim.fetch(`${API}/v1/account`, { headers: { Authorization: `Bearer ${sim.platform.publishableKey.test}` } })
    expect(res.status).toBe(401)
    expect((await errorOf(res)).message).toContain('publishable')
  })

  it('decides livemode from the key and keeps test and live data apart', async () => {
    const { sim, form } = setup()
    // The account object declares no `livemode`; the objects created beside it carry the key's mode.
    expect((await (await form('/v1/customers', 'email=t%40x.test')).json()).livemode).toBe(false)
    const created = await (await form('/v1/accounts', 'email=t%40x.test')).json()
    const live = await sim.fetch(`${API}/v1/accounts/${created.id}`, {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.live}` },
    })
    expect(live.status).toBe(403)
    const test = await sim.fetch(`${API}/v1/accounts/${created.id}`, {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    expect(test.status).toBe(200)
  })

  it('acts for a connected account named in Service-Account', async () => {
    const { sim, get } = setup()
    const connected = sim.admin.createAccount({ email: 'c@x.test' })
    const res = await get('/v1/account', { 'Service-Account': connected.id })
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(connected.id)
  })

  it('refuses Service-Account for an account the platform does not own with 403', async () => {
    const { sim, get } = setup()
    const otherPlatform = sim.service.accounts.create()
    const foreign = sim.service.accounts.create({ platform: otherPlatform.id })
    for (const id of [foreign.id, otherPlatform.id, 'acct_doesnotexist']) {
      const res = await get('/v1/account', { 'Service-Account': id })
      expect(res.status).toBe(403)
      expect((await errorOf(res)).code).toBe('account_invalid')
    }
  })

  it('treats an account id in the path as Service-Account', async () => {
    const { sim, get } = setup()
    const connected = sim.admin.createAccount()
    const res = await get(`/v1/accounts/${connected.id}`)
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(connected.id)
  })

  it('uses the prefix for provider-named headers, and honours the other prefix rather than ignore it', async () => {
    const { sim, auth } = setup({ headerPrefix: 'Stripe' })
    const connected = sim.admin.createAccount()
    const res = await sim.fetch(`${API}/v1/account`, { headers: { ...auth, 'Stripe-Account': connected.id } })
    expect((await res.json()).id).toBe(connected.id)
    const other = await sim.fetch(`${API}/v1/account`, { headers: { ...auth, 'Service-Account': connected.id } })
    expect((await other.json()).id).toBe(connected.id)
  })

  it('acts for an organisation member named in Service-Context', async () => {
    const { sim, get } = setup()
    const member = sim.service.accounts.create()
    sim.admin.createOrganisation({ accounts: [sim.platform.id, member.id] })
    const res = await get('/v1/account', { 'Service-Context': member.id })
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(member.id)
    const outsider = sim.service.accounts.create()
    expect((await get('/v1/account', { 'Service-Context': outsider.id })).status).toBe(403)
  })

  it('refuses a meter event session token on other endpoints', async () => {
    const { sim, json } = setup()
    const session = await (await json('/v2/billing/meter_event_session', {})).json()
    const res = await sim.fetch(`${API}/v1/account`, { headers: { Authorization: `Bearer ${session.authentication_token}` } })
    expect(res.status).toBe(401)
    expect((await errorOf(res)).message).toContain('session token')
  })
})

describe('Service-Context for connected accounts', () => {
  it('acts for a connected account of the platform named as the context of its events', async () => {
    const { sim, get } = setup()
    const connected = sim.admin.createAccount()
    const res = await get('/v1/account', { 'Service-Context': connected.id })
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(connected.id)
  })
})
