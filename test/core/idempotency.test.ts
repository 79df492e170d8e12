import { describe, expect, it } from 'vitest'
import { errorOf, setup } from './helpers.js'

describe('Idempotency-Key', () => {
  it('replays the first response for a repeat and creates nothing new', async () => {
    const { sim, form } = setup()
    const first = await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k1' })
    const before = sim.admin.accounts().length
    const again = await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k1' })
    expect(again.status).toBe(first.status)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('request-id')).toBe(first.headers.get('request-id'))
    expect(await again.text()).toBe(await first.text())
    expect(sim.admin.accounts().length).toBe(before)
  })

  it('refuses the same key with other parameters with 400 idempotency_error', async () => {
    const { form } = setup()
    await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k2' })
    const res = await form('/v1/accounts', 'email=other%40b.test', { 'Idempotency-Key': 'k2' })
    expect(res.status).toBe(400)
    expect((await errorOf(res)).type).toBe('idempotency_error')
  })

  it('answers 409 to a repeat while the first is still in flight', async () => {
    const { form } = setup({ serviceTime: 50 })
    const [a, b] = await Promise.all([
      form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k3' }),
      form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k3' }),
    ])
    expect(a.status).toBe(200)
    expect(b.status).toBe(409)
    expect((await errorOf(b)).type).toBe('idempotency_error')
  })

  it('forgets a key after 24 hours of virtual time', async () => {
    const { sim, form } = setup()
    await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k4' })
    await sim.clock.tickAsync(24 * 3600_000 + 1)
    const res = await form('/v1/accounts', 'email=other%40b.test', { 'Idempotency-Key': 'k4' })
    expect(res.status).toBe(200)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
  })

  it('does not save a request refused by validation, so a corrected retry runs', async () => {
    const { form } = setup()
    const bad = await form('/v1/accounts', 'type=nope', { 'Idempotency-Key': 'k5' })
    expect(bad.status).toBe(400)
    const good = await form('/v1/accounts', 'type=custom', { 'Idempotency-Key': 'k5' })
    expect(good.status).toBe(200)
  })

  it('scopes keys to the account', async () => {
    const { sim, form } = setup()
    const connected = sim.admin.createAccount()
    const a = await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'shared' })
    const b = await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'shared', 'Service-Account': connected.id })
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect((await b.json()).id).not.toBe((await a.json()).id)
  })
})

describe('Idempotency-Key shape', () => {
  it('refuses a key longer than 255 characters with 400 and creates nothing', async () => {
    const { sim, form } = setup()
    const before = sim.admin.accounts().length
    const res = await form('/v1/accounts', 'email=a%40b.test', { 'Idempotency-Key': 'k'.repeat(256) })
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toMatchObject({ code: 'idempotency_key_invalid', param: 'Idempotency-Key' })
    expect(sim.admin.accounts().length).toBe(before)
  })
})
