import { describe, expect, it } from 'vitest'
import { createSimulator, DEFAULT_READ_ALLOCATION } from '../../src/index.js'
import { call, sequential } from './helpers.js'

const DAY = 86_400_000

describe('read allocations', () => {
  it('refuses GETs beyond the minimum allocation with 429 global-rate and lets writes through', async () => {
    const sim = createSimulator({ seed: 13, limits: { reads: { minimum: 5 } } })
    expect(await sequential(5, () => call(sim, 'test', 'GET', '/v1/account'))).toEqual(Array(5).fill(200))
    const refused = await call(sim, 'test', 'GET', '/v1/balance')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('service-rate-limited-reason')).toBe('global-rate')
    expect((await refused.json()).error.message).toMatch(/Read allocation/)
    expect((await call(sim, 'test', 'POST', '/v1/customers', { body: { email: 'w@example.com' } })).status).toBe(200)
    expect(sim.admin.readsUsed(sim.platform.id, 'test')).toBe(5)
  })

  it('forgets reads older than the rolling 30 days', async () => {
    const sim = createSimulator({ seed: 13, limits: { reads: { minimum: 2 } } })
    await sequential(2, () => call(sim, 'test', 'GET', '/v1/account'))
    expect((await call(sim, 'test', 'GET', '/v1/account')).status).toBe(429)
    await sim.clock.tickAsync(30 * DAY)
    expect((await call(sim, 'test', 'GET', '/v1/account')).status).toBe(200)
  })

  it('grows the allocation with the transactions of the window', async () => {
    const sim = createSimulator({ seed: 14, limits: { reads: { minimum: 2, perTransaction: 2 } } })
    for (const source of ['ch_1', 'ch_2']) {
      sim.service.ledger.post({ account: sim.platform.id, mode: 'test', currency: 'usd', amount: 100, type: 'charge', source })
    }
    expect(await sequential(5, () => call(sim, 'test', 'GET', '/v1/account'))).toEqual([200, 200, 200, 200, 429])
  })

  it('counts reads on behalf of a connected account against the platform allocation, apart from its own', async () => {
    const sim = createSimulator({ seed: 15, limits: { reads: { minimum: 2 } } })
    const connected = sim.admin.createAccount({ email: 'c@example.com' })
    const onBehalf = () => call(sim, 'test', 'GET', '/v1/account', { headers: { 'Service-Account': connected.id } })
    expect(await sequential(3, onBehalf)).toEqual([200, 200, 429])
    expect(sim.admin.readsUsed(sim.platform.id, 'test', true)).toBe(2)
    // The platform's own reads and the connected account's own key each have their own allocation.
    expect((await call(sim, 'test', 'GET', '/v1/account')).status).toBe(200)
    expect((await call(sim, 'test', 'GET', '/v1/account', { key: connected.keys.secret.test })).status).toBe(200)
  })

  it('does not count operations of the excluded product families', async () => {
    expect(DEFAULT_READ_ALLOCATION.excluded).toEqual(expect.arrayContaining(['reporting.*', 'sigma.*', 'tax.*']))
    const sim = createSimulator({ seed: 16, limits: { reads: { minimum: 1, excluded: ['accounts.retrieveCurrent'] } } })
    expect(await sequential(3, () => call(sim, 'test', 'GET', '/v1/account'))).toEqual([200, 200, 200])
    expect(sim.admin.readsUsed(sim.platform.id, 'test')).toBe(0)
  })
})
