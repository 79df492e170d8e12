import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { call } from '../cli/node-request.js'
import { cli } from '../cli/run-cli.js'

const token = 'versions-suite'
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }

describe('account default versions through the admin API over HTTP', () => {
  const sim = createSimulator({ seed: 9 })
  let server: SimServer
  let port = 0
  const post = async (path: string, body: unknown) => {
    const a = await call(port, `/__sim${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: a.status, body: JSON.parse(a.body) as any }
  }
  beforeAll(async () => {
    server = await startHttpServer(sim, { port: 0, adminToken: token, rebuild: () => createSimulator({ seed: 9 }) })
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )

  it('creates an account with a default version and answers its requests at it', async () => {
    const made = await post('/accounts', { api_version: '2022-08-01' })
    expect(made.status).toBe(200)
    const res = await call(port, '/v1/customers', { headers: { Authorization: `Bearer ${made.body.secret_key.test}` } })
    expect(res.headers['service-version']).toBe('2022-08-01')
  })

  it('sets the platform default version and refuses one it does not serve', async () => {
    expect((await post('/accounts/api_version', { api_version: '2024-09-30.acacia' })).body).toEqual({
      id: sim.platform.id,
      api_version: '2024-09-30.acacia',
    })
    expect(sim.admin.account(sim.platform.id)?.apiVersion).toBe('2024-09-30.acacia')
    const refused = await post('/accounts/api_version', { api_version: '2019-12-03' })
    expect(refused.status).toBe(400)
    expect(sim.admin.account(sim.platform.id)?.apiVersion).toBe('2024-09-30.acacia')
  })
})

describe('serve --api-version', () => {
  it('refuses a version it does not serve before starting', () => {
    const run = cli(['serve', '--api-version', '2019-12-03', '--port', '0'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--api-version')
  })
})
