import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { type Answer, call } from '../cli/node-request.js'

const code = (answer: Answer) => (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code
const TOKEN = 'dashboard-suite-token'

/** Reads a server-sent event stream until `until` holds for what came, then drops the connection. */
function readStream(port: number, headers: Record<string, string>, until: (text: string) => boolean, act: () => Promise<void>) {
  return new Promise<string>((done, failed) => {
    const req = request({ host: '127.0.0.1', port, path: '/__dashboard/live', headers })
    req.on('response', (res) => {
      let text = ''
      let acted = false
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        if (!acted && text.includes('event: hello')) {
          acted = true
          act().catch(failed)
        }
        if (until(text)) {
          req.destroy()
          done(text)
        }
      })
    })
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : failed(error)))
    req.end()
  })
}

describe("serve's dashboard behind the admin token", () => {
  const sim = createSimulator({ seed: 40, headerPrefix: 'Stripe', limits: false })
  let server: Server
  let port = 0
  let cookie: Record<string, string> = {}
  beforeAll(async () => {
    server = await startHttpServer(sim, { port: 0, adminToken: TOKEN })
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )

  it('refuses the page, its script, its API calls and its live stream without the token with 401', async () => {
    for (const path of ['/__dashboard', '/__dashboard/app.js', '/__dashboard/api/events', '/__dashboard/live']) {
      const answer = await call(port, path)
      expect(answer.status, path).toBe(401)
      expect(code(answer), path).toBe('admin_token_missing')
      expect(answer.body).not.toContain(sim.platform.secretKey.test)
    }
  })

  it('refuses a wrong token, in the link or in the cookie, with 401', async () => {
    expect((await call(port, '/__dashboard?token=nope')).status).toBe(401)
    const wrongCookie = await call(port, '/__dashboard/api/state', {
      headers: { Cookie: `service_sim_dashboard_${port}=nope` },
    })
    expect(wrongCookie.status).toBe(401)
    expect(code(wrongCookie)).toBe('admin_token_invalid')
    // A token in the query opens only the entry page, where the link lands.
    expect((await call(port, `/__dashboard/api/state?token=${TOKEN}`)).status).toBe(401)
  })

  it('answers the banner link by setting a script-proof same-site cookie and sending the token out of the address', async () => {
    const answer = await call(port, `/__dashboard?token=${TOKEN}`)
    expect(answer.status).toBe(303)
    expect(answer.headers.location).toBe('/__dashboard')
    const set = String(answer.headers['set-cookie'])
    expect(set).toContain(`service_sim_dashboard_${port}=${TOKEN}`)
    expect(set).toContain('HttpOnly')
    expect(set).toContain('SameSite=Strict')
    expect(set).toContain('Path=/__dashboard')
    cookie = { Cookie: `service_sim_dashboard_${port}=${TOKEN}` }
  })

  it('serves the page with the cookie, with a policy that lets it load and call nothing but this server', async () => {
    const page = await call(port, '/__dashboard', { headers: cookie })
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("default-src 'none'")
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.body).toContain('src="/__dashboard/app.js"')
    const script = await call(port, '/__dashboard/app.js', { headers: cookie })
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toMatch(/^text\/javascript/)
    // The only absolute URLs in it are the UI library's XML namespace names, which are never fetched.
    const urls = [...script.body.matchAll(/https?:\/\/[^"'`\s]*/g)].map((m) => m[0])
    expect(urls.filter((u) => !u.startsWith('http://www.w3.org/'))).toEqual([])
    expect((await call(port, '/__dashboard/app.css', { headers: cookie })).status).toBe(200)
    expect((await call(port, '/__dashboard/nothing', { headers: cookie })).status).toBe(404)
  })

  it('answers the admin API under its own path with the cookie, or with the Bearer header', async () => {
    const state = await call(port, '/__dashboard/api/state', { headers: cookie })
    expect(state.status).toBe(200)
    expect(state.body).toContain(sim.platform.secretKey.test)
    const bearer = await call(port, '/__dashboard/api/events', { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(bearer.status).toBe(200)
  })

  it('refuses a foreign Origin with 403 even with the cookie', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const answer = await call(port, '/__dashboard/api/deliveries/resend', {
        method: 'POST',
        headers: { ...cookie, Origin: origin, 'Content-Type': 'application/json' },
        body: '{"event":"evt_x","destination":"we_x"}',
      })
      expect(answer.status, origin).toBe(403)
      expect(code(answer)).toBe('origin_not_allowed')
    }
  })

  it('refuses a rebinding Host with 403 even with the cookie', async () => {
    for (const path of ['/__dashboard', '/__dashboard/api/state', '/__dashboard/live']) {
      const answer = await call(port, path, { headers: { ...cookie, Host: `evil.example:${port}` } })
      expect(answer.status, path).toBe(403)
      expect(code(answer)).toBe('host_not_allowed')
      expect(answer.body).not.toContain(sim.platform.secretKey.test)
    }
  })

  it('takes its actions as JSON only, as the admin API does (a form post from a page needs no preflight)', async () => {
    const answer = await call(port, '/__dashboard/api/deliveries/resend', {
      method: 'POST',
      headers: { ...cookie, 'Content-Type': 'text/plain' },
      body: '{"event":"evt_x","destination":"we_x"}',
    })
    expect(answer.status).toBe(415)
  })

  it("does not record the page's reads in the trace, so rereading on each change wakes nothing", async () => {
    const before = sim.trace.length
    await call(port, '/__dashboard/api/events', { headers: cookie })
    await call(port, '/__dashboard/api/trace?since=0', { headers: cookie })
    expect(sim.trace.length).toBe(before)
  })

  it('tells a live page, over server-sent events, that requests were answered', async () => {
    const key = sim.platform.secretKey.test
    const text = await readStream(
      port,
      cookie,
      (t) => t.includes('"http"'),
      async () => {
        await Promise.all([
          call(port, '/v1/customers', { method: 'POST', headers: { Authorization: `Bearer ${key}` } }),
          call(port, '/v1/balance', { headers: { Authorization: `Bearer ${key}` } }),
        ])
      },
    )
    expect(text).toContain('retry: 1000')
    const changes = [...text.matchAll(/event: change\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1] ?? '{}') as { kinds: string[] })
    expect(changes.flatMap((c) => c.kinds)).toContain('http')
  })

  it('tells a live page when the admin API resets the simulation, and follows the fresh simulator', async () => {
    const admin = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }
    const text = await readStream(
      port,
      cookie,
      (t) => t.includes('event: reset') && t.includes('"http"'),
      async () => {
        expect((await call(port, '/__sim/reset', { method: 'POST', headers: admin, body: '{}' })).status).toBe(200)
        const key = sim.platform.secretKey.test
        await call(port, '/v1/balance', { headers: { Authorization: `Bearer ${key}` } })
      },
    )
    expect(text.indexOf('event: reset')).toBeLessThan(text.lastIndexOf('"http"'))
  })

  // The management pages' calls: each read and action is guarded as the first pages' are.
  const MANAGEMENT = [
    { method: 'GET', path: '/__dashboard/api/destinations/health' },
    { method: 'POST', path: '/__dashboard/api/destinations/we_x/roll_secret', body: '{}' },
    { method: 'POST', path: '/__dashboard/api/destinations/we_x/status', body: '{"status":"disabled"}' },
    { method: 'POST', path: '/__dashboard/api/destinations/we_x/test_send', body: '{}' },
    { method: 'GET', path: '/__dashboard/api/objects?q=cus_1' },
    { method: 'GET', path: '/__dashboard/api/objects/cus_1' },
    { method: 'GET', path: '/__dashboard/api/scheduler' },
    { method: 'GET', path: '/__dashboard/api/triggers' },
    { method: 'GET', path: '/__dashboard/api/test_clocks' },
    { method: 'POST', path: '/__dashboard/api/clock/advance_to', body: '{"to":"2030-01-01T00:00:00Z"}' },
    { method: 'POST', path: '/__dashboard/api/test_clocks/clock_x/advance', body: '{"duration":"1d"}' },
    { method: 'GET', path: '/__dashboard/api/faults/log' },
  ]

  it("guards the management pages' calls: 401 without the token, 403 from a foreign Origin or a rebinding Host", async () => {
    for (const r of MANAGEMENT) {
      const json = { 'Content-Type': 'application/json' }
      const bare = await call(port, r.path, {
        method: r.method,
        headers: json,
        ...(r.body === undefined ? {} : { body: r.body }),
      })
      expect(bare.status, `${r.method} ${r.path}`).toBe(401)
      const foreign = await call(port, r.path, {
        method: r.method,
        headers: { ...cookie, ...json, Origin: 'https://evil.example' },
        ...(r.body === undefined ? {} : { body: r.body }),
      })
      expect(foreign.status, `${r.method} ${r.path} from a foreign origin`).toBe(403)
      const rebound = await call(port, r.path, {
        method: r.method,
        headers: { ...cookie, ...json, Host: `evil.example:${port}` },
        ...(r.body === undefined ? {} : { body: r.body }),
      })
      expect(rebound.status, `${r.method} ${r.path} through a rebound name`).toBe(403)
    }
    expect((await call(port, '/__dashboard/api/scheduler', { headers: cookie })).status).toBe(200)
  })
})
