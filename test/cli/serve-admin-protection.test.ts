import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpServer } from '../../src/cli/http-server.js'
import { ADMIN_TOKEN_ENV, resolveAdminToken } from '../../src/cli/serve-command.js'
import { generateAdminToken } from '../../src/cli/serve-guard.js'
import { UsageError } from '../../src/cli/usage-error.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { type Answer, call } from './node-request.js'
import { startServeCli } from './serve-cli.js'

const code = (answer: Answer) => (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code
const stop = (server: Server) =>
  new Promise<void>((done) => {
    server.closeAllConnections()
    server.close(() => done())
  })
const json = { 'Content-Type': 'application/json' }

describe('serve admin API protection', () => {
  const sim = createSimulator({ seed: 11 })
  const token = 'protection-suite-token'
  const bearer = { Authorization: `Bearer ${token}` }
  let server: Server
  let port = 0
  beforeAll(async () => {
    server = await startHttpServer(sim, { port: 0, adminToken: token, allowedHosts: ['sim.internal'] })
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => stop(server))
  const now = async () => (JSON.parse((await call(port, '/__sim/state', { headers: bearer })).body) as { now: string }).now

  it('refuses the admin API without a token with 401 and a Bearer challenge', async () => {
    const answer = await call(port, '/__sim/state')
    expect(answer.status).toBe(401)
    expect(code(answer)).toBe('admin_token_missing')
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer /)
    expect(answer.body).not.toContain(sim.platform.secretKey.test)
  })

  it('refuses a wrong token with 401, in either header', async () => {
    const wrong: Record<string, string>[] = [
      { Authorization: 'Bearer nope' },
      { 'X-Sim-Admin-Token': 'nope' },
      { Authorization: `Basic ${token}` },
    ]
    for (const headers of wrong) {
      const answer = await call(port, '/__sim/state', { headers })
      expect(answer.status, JSON.stringify(headers)).toBe(401)
    }
    expect(code(await call(port, '/__sim/trace', { headers: { Authorization: 'Bearer nope' } }))).toBe('admin_token_invalid')
  })

  it('answers the right token, as Authorization: Bearer or X-Sim-Admin-Token', async () => {
    const state = await call(port, '/__sim/state', { headers: bearer })
    expect(state.status).toBe(200)
    expect(state.body).toContain(sim.platform.secretKey.test)
    expect((await call(port, '/__sim/events', { headers: { 'X-Sim-Admin-Token': token } })).status).toBe(200)
  })

  it('refuses a foreign Host with 403 on the admin API and the service API alike', async () => {
    const admin = await call(port, '/__sim/state', { headers: { ...bearer, Host: 'evil.example' } })
    expect(admin.status).toBe(403)
    expect(code(admin)).toBe('host_not_allowed')
    const api = await call(port, '/v1/balance', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, Host: `evil.example:${port}` },
    })
    expect(api.status).toBe(403)
    expect(api.body).not.toContain('"object"')
  })

  it('accepts loopback names and --allowed-host names in Host, with any port', async () => {
    for (const host of ['localhost', `LOCALHOST:${port}`, '127.0.0.1:1', '[::1]:8080', 'sim.internal:443']) {
      expect((await call(port, '/__sim/state', { headers: { ...bearer, Host: host } })).status, host).toBe(200)
    }
  })

  it('refuses a foreign Origin with 403 and accepts a loopback one', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'garbage']) {
      const answer = await call(port, '/__sim/state', { headers: { ...bearer, Origin: origin } })
      expect(answer.status, origin).toBe(403)
      expect(code(answer)).toBe('origin_not_allowed')
    }
    const api = await call(port, '/v1/balance', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, Origin: 'https://evil.example' },
    })
    expect(api.status).toBe(403)
    expect((await call(port, '/__sim/state', { headers: { ...bearer, Origin: 'http://localhost:5173' } })).status).toBe(200)
  })

  it('refuses a cross-origin-simple admin write (text/plain, form, none) with 415 and leaves the clock alone', async () => {
    const before = await now()
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const answer = await call(port, '/__sim/clock/advance', {
        method: 'POST',
        headers: { ...bearer, ...(type === undefined ? {} : { 'Content-Type': type }) },
        body: '{"duration":"30d"}',
      })
      expect(answer.status, type).toBe(415)
      expect(code(answer)).toBe('content_type_unsupported')
    }
    expect(await now()).toBe(before)
    const moved = await call(port, '/__sim/clock/advance', {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"duration":"1m"}',
    })
    expect(moved.status).toBe(200)
    expect(await now()).toBe(new Date(Date.parse(before) + 60_000).toISOString())
  })

  it('refuses an admin write without a token before looking at its body', async () => {
    const before = await now()
    const answer = await call(port, '/__sim/clock/advance', { method: 'POST', headers: json, body: '{"duration":"30d"}' })
    expect(answer.status).toBe(401)
    expect(await now()).toBe(before)
  })
})

describe('serve with the admin token turned off', () => {
  it('answers the admin API without a token, and still checks Host, Origin and content type', async () => {
    const sim = createSimulator({ seed: 12 })
    const server = await startHttpServer(sim, { port: 0, adminToken: null })
    const port = (server.address() as AddressInfo).port
    try {
      expect((await call(port, '/__sim/state')).status).toBe(200)
      expect((await call(port, '/__sim/state', { headers: { Host: 'evil.example' } })).status).toBe(403)
      expect((await call(port, '/__sim/state', { headers: { Origin: 'https://evil.example' } })).status).toBe(403)
      expect((await call(port, '/__sim/settle', { method: 'POST', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415)
      expect((await call(port, '/__sim/settle', { method: 'POST', headers: json })).status).toBe(200)
    } finally {
      await stop(server)
    }
  })
})

describe('the admin token of service-sim serve', () => {
  it('is generated fresh at each start unless given', () => {
    const a = resolveAdminToken(undefined, {})
    const b = resolveAdminToken(undefined, {})
    expect(a.source).toBe('generated')
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(a.token).not.toBe(b.token)
    expect(generateAdminToken()).toHaveLength(32)
  })

  it('comes from --admin-token before the environment, and none turns it off either way', () => {
    expect(resolveAdminToken('from-option', { [ADMIN_TOKEN_ENV]: 'from-env' })).toEqual({
      token: 'from-option',
      source: '--admin-token',
    })
    expect(resolveAdminToken(undefined, { [ADMIN_TOKEN_ENV]: 'from-env' })).toEqual({
      token: 'from-env',
      source: ADMIN_TOKEN_ENV,
    })
    expect(resolveAdminToken('none', {}).token).toBeNull()
    expect(resolveAdminToken(undefined, { [ADMIN_TOKEN_ENV]: 'none' }).token).toBeNull()
  })

  it('refuses a token that cannot travel in a header as a usage error', () => {
    expect(() => resolveAdminToken('two words', {})).toThrow(UsageError)
    expect(() => resolveAdminToken('', {})).toThrow(UsageError)
  })
})

// An unset token variable, so the generated token is what the first test sees.
const startCli = (args: string[], env: Record<string, string> = {}) =>
  startServeCli(args, { ...env, [ADMIN_TOKEN_ENV]: env[ADMIN_TOKEN_ENV] ?? '' })

describe('service-sim serve (the real bin) and its admin token', () => {
  it('prints a generated token at start and requires it on the admin API', async () => {
    const served = await startCli([])
    try {
      const printed = /admin token (\S+)/.exec(served.out())?.[1] ?? ''
      expect(printed).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect((await call(served.port, '/__sim/state')).status).toBe(401)
      expect((await call(served.port, '/__sim/state', { headers: { Authorization: `Bearer ${printed}` } })).status).toBe(200)
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })

  it(`takes the token from ${ADMIN_TOKEN_ENV} without echoing it`, async () => {
    const served = await startCli([], { [ADMIN_TOKEN_ENV]: 'env-token-for-test' })
    try {
      expect(served.out()).toContain(`admin token from ${ADMIN_TOKEN_ENV}`)
      expect(served.out()).not.toContain('env-token-for-test')
      expect((await call(served.port, '/__sim/state', { headers: { 'X-Sim-Admin-Token': 'env-token-for-test' } })).status).toBe(
        200,
      )
      expect((await call(served.port, '/__sim/state', { headers: { 'X-Sim-Admin-Token': 'other' } })).status).toBe(401)
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })
})
