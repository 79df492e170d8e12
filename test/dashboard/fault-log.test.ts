import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'

const TOKEN = 'fault-log-suite'

describe("the fault policy and the log of injected faults through serve's admin API, as the Faults page reads them", () => {
  const sim = createSimulator({ seed: 46, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let base = ''
  let stripe: Stripe
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/__sim${path}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: TOKEN })
    const port = (server.address() as AddressInfo).port
    base = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
  })

  it('logs an injected fault when it fires, and a rate change, newest first, with the rates in force', async () => {
    expect((await admin('GET', '/faults/log')).body).toMatchObject({ total: 0, log: [] })
    await admin('POST', '/faults/inject', { fault: 'server_error', operation: 'customers.create' })
    await expect(stripe.customers.create({ email: 'a@example.com' })).rejects.toMatchObject({ statusCode: 500 })
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
