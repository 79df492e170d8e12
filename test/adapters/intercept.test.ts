import https from 'node:https'
import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'

let sim: Simulator | undefined
afterEach(() => {
  sim?.restore()
  sim = undefined
})

function httpsGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'GET', headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** nock refuses with its own error; a real failed lookup is a TypeError with a cause. */
function refusal(e: Error & { cause?: Error }): string {
  return e.name === 'TypeError' && e.cause ? e.cause.name : e.name
}

describe('sim.intercept()', () => {
  it('answers the global fetch for the API host with the simulator', async () => {
    sim = createSimulator({ seed: 1 })
    await sim.intercept()
    const res = await fetch('https://api.service.test/v1/account', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(sim.platform.id)
    expect(res.headers.get('request-id')).toMatch(/^req_/)
    expect(sim.trace.entries().some((e) => e.kind === 'http')).toBe(true)
  })

  it('answers node https requests with the simulator', async () => {
    sim = createSimulator({ seed: 2 })
    await sim.intercept()
    const res = await httpsGet('https://api.service.test/v1/account', {
      Authorization: `Bearer ${sim.platform.secretKey.test}`,
    })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body).id).toBe(sim.platform.id)
  })

  it('lets the official client with its default node http transport reach the simulator on api.stripe.com', async () => {
    sim = createSimulator({ seed: 3, headerPrefix: 'Stripe' })
    await sim.intercept()
    const stripe = new Stripe(sim.platform.secretKey.test, { maxNetworkRetries: 0 })
    const account = await stripe.accounts.retrieveCurrent()
    expect(account.id).toBe(sim.platform.id)
  })

  it('passes the raw request body through, so an idempotent replay matches byte for byte', async () => {
    sim = createSimulator({ seed: 4 })
    await sim.intercept()
    const post = () =>
      fetch('https://api.service.test/v2/billing/meter_event_session', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${sim!.platform.secretKey.test}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'k-1',
        },
        body: '{ }',
      })
    const first = await post()
    const second = await post()
    expect(first.status).toBe(200)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await second.text()).toBe(await first.text())
  })

  it('fails loudly for a host it does not route, by default', async () => {
    sim = createSimulator({ seed: 5 })
    await sim.intercept()
    const error = await fetch('https://elsewhere.invalid/x').then(() => undefined, refusal)
    expect(error).toBe('NetConnectNotAllowedError')
  })

  it('lets unmatched hosts reach the network with unmatched: passthrough', async () => {
    sim = createSimulator({ seed: 6 })
    await sim.intercept({ unmatched: 'passthrough' })
    const error = await fetch('https://elsewhere.invalid/x').then(() => undefined, refusal)
    // A real lookup was attempted (and failed: .invalid never resolves), not a refusal by nock.
    expect(error).toBeDefined()
    expect(error).not.toBe('NetConnectNotAllowedError')
  })

  it('routes only the hosts given explicitly', async () => {
    sim = createSimulator({ seed: 7 })
    await sim.intercept({ hosts: ['billing.internal.test'] })
    const res = await fetch('https://billing.internal.test/v1/account', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    expect(res.status).toBe(200)
    const refused = await fetch('https://api.service.test/v1/account').then(
      () => 'answered',
      () => 'refused',
    )
    expect(refused).toBe('refused')
  })

  it('gives the real fetch back on restore()', async () => {
    const realFetch = globalThis.fetch
    sim = createSimulator({ seed: 8 })
    await sim.intercept()
    expect(globalThis.fetch).not.toBe(realFetch)
    sim.restore()
    expect(globalThis.fetch).toBe(realFetch)
    const after = await fetch('https://api.service.test/v1/account').then(() => 'answered', refusal)
    expect(after).not.toBe('answered')
    expect(after).not.toBe('NetConnectNotAllowedError')
  })

  it('refuses a second intercept() before restore()', async () => {
    sim = createSimulator({ seed: 9 })
    await sim.intercept()
    expect(() => sim!.intercept()).toThrow(/already intercepting/)
  })

  it('refuses a host given with a scheme', async () => {
    sim = createSimulator({ seed: 10 })
    await expect(sim.intercept({ hosts: ['https://api.service.test'] })).rejects.toThrow(/no scheme/)
    await sim.intercept()
  })
})

describe('sim.intercept() on a global clock', () => {
  it("runs the official client's retries through node https and nock on the virtual clock", async () => {
    const { runOnClock } = await import('../../src/index.js')
    sim = createSimulator({ seed: 11, headerPrefix: 'Stripe', clock: 'global' })
    const s = sim
    try {
      await s.intercept()
      const stripe = new Stripe(s.platform.secretKey.test, { maxNetworkRetries: 2 })
      const customer = await runOnClock(s, () => stripe.customers.create({ email: 'old@example.com' }))
      s.admin.holdLock(customer.id, 2_500)
      const updated = await runOnClock(s, () => stripe.customers.update(customer.id, { email: 'new@example.com' }))
      expect(updated.email).toBe('new@example.com')
      const statuses = s.trace
        .filter('http')
        .filter((e) => e.kind === 'http' && e.data.path === `/v1/customers/${customer.id}`)
        .map((e) => e.data.status)
      expect(statuses).toEqual([429, 200])
    } finally {
      s.restore()
      s.clock.uninstall()
    }
  })
})

describe('sim.intercept() with two simulators', () => {
  it('refuses a second simulator on hosts another one already routes, until that one restores', async () => {
    const first = createSimulator({ seed: 4 })
    const second = createSimulator({ seed: 5 })
    await first.intercept()
    try {
      await expect(second.intercept()).rejects.toThrow(/already routed to another simulator/)
    } finally {
      first.restore()
    }
    await second.intercept()
    try {
      const res = await fetch('https://api.service.test/v1/account', {
        headers: { Authorization: `Bearer ${second.platform.secretKey.test}` },
      })
      expect((await res.json()).id).toBe(second.platform.id)
    } finally {
      second.restore()
    }
  })
})
