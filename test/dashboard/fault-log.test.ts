import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { servedAdmin } from './served-admin.js'

const TOKEN = 'fault-log-suite'

describe("the fault policy and the log of injected faults through serve's admin API, as the Faults page reads them", () => {
  const sim = createSimulator({ seed: 46, headerPrefix: 'Stripe', limits: false })
  const served = servedAdmin(sim, TOKEN)
  const admin = served.admin

  it('logs an injected fault when it fires, and a rate change, newest first, with the rates in force', async () => {
    expect((await admin('GET', '/faults/log')).body).toMatchObject({ total: 0, log: [] })
    await admin('POST', '/faults/inject', { fault: 'server_error', operation: 'customers.create' })
    await expect(served.stripe.customers.create({ email: 'a@example.com' })).rejects.toMatchObject({ statusCode: 500 })
    await admin('POST', '/faults/rates', { rates: { rate_limit: 0.25 } })
    const { status, body } = await admin('GET', '/faults/log')
    expect(status).toBe(200)
    expect(body.policy.rates).toEqual({ rate_limit: 0.25 })
    expect(body.log.map((e: { entry: string }) => e.entry)).toEqual(['faults.changed', 'fault'])
    expect(body.log[1]).toMatchObject({ kind: 'server_error', source: 'inject' })
    expect((await admin('GET', '/faults/log?limit=1')).body.log).toHaveLength(1)
    expect((await admin('GET', '/faults/log?limit=5000')).status).toBe(400)
  })
})
