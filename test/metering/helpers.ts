import Stripe from 'stripe'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js'

/** A simulator for metering tests; limits are off unless a test is about them. */
export function meteringSim(options: SimulatorOptions = {}): Simulator {
  return createSimulator({ seed: 3, limits: false, ...options } as SimulatorOptions)
}

export interface Api {
  sim: Simulator
  key: string
  form(path: string, fields: Record<string, string>, method?: string): Promise<Response>
  get(path: string): Promise<Response>
  json(path: string, body: unknown, token?: string): Promise<Response>
  session(): Promise<{ id: string; authentication_token: string; created: string; expires_at: string; livemode: boolean }>
  stream(token: string, events: unknown[]): Promise<Response>
  meter(fields?: Record<string, string>): Promise<Record<string, any>>
}

/** Helpers that speak to `sim.fetch` the way a hand-written client would. */
export function api(sim: Simulator = meteringSim()): Api {
  const key = sim.platform.secretKey.test
  const a: Api = {
    sim,
    key,
    form: (path, fields, method = 'POST') =>
      sim.fetch(`https://api.service.test${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    get: (path) => sim.fetch(`https://api.service.test${path}`, { headers: { Authorization: `Bearer ${key}` } }),
    json: (path, body, token = key) =>
      sim.fetch(`https://api.service.test${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    async session() {
      const res = await a.json('/v2/billing/meter_event_session', {})
      if (res.status !== 200) throw new Error(`session: ${res.status} ${await res.text()}`)
      return res.json()
    },
    stream: (token, events) =>
      sim.fetch('https://meter-events.service.test/v2/billing/meter_event_stream', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ events }),
      }),
    async meter(fields = {}) {
      const res = await a.form('/v1/billing/meters', {
        event_name: 'api_call',
        display_name: 'API calls',
        'default_aggregation[formula]': 'sum',
        ...fields,
      })
      if (res.status !== 200) throw new Error(`meter: ${res.status} ${await res.text()}`)
      return res.json()
    },
  }
  return a
}

/** The official client over `sim.fetch`, prefix Stripe; `urls` records every URL it called. */
export interface OfficialClient {
  sim: Simulator
  stripe: Stripe
  urls: string[]
  httpClient: ReturnType<typeof Stripe.createFetchHttpClient>
}

export function officialClient(options: SimulatorOptions = {}): OfficialClient {
  const sim = meteringSim({ headerPrefix: 'Stripe', ...options })
  const urls: string[] = []
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(input instanceof Request ? input.url : String(input))
    return sim.fetch(input, init)
  }
  const httpClient = Stripe.createFetchHttpClient(fetch)
  const stripe = new Stripe(sim.platform.secretKey.test, { httpClient, maxNetworkRetries: 0 })
  return { sim, stripe, urls, httpClient }
}

/** The error envelope of a response. */
export async function errorOf(
  res: Response,
): Promise<{ status: number; type: string; code?: string; param?: string; message: string }> {
  const body = (await res.json()) as { error: { type: string; code?: string; param?: string; message: string } }
  return { status: res.status, ...body.error }
}

export const MINUTE = 60_000
export const DAY = 24 * 60 * MINUTE
