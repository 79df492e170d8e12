/**
 * The same official-client calls (customer create, customer retrieve, payment intent create),
 * answered four ways in one process, rounds alternating:
 *
 * - limit: a fetch that only builds the `Request` and a canned `Response` (bare construction);
 * - nock: global `fetch` answered by a static, persisted nock 14 interceptor;
 * - msw: global `fetch` answered by a static msw 2 `setupServer` handler;
 * - service-sim: `sim.fetch` doing the real work (parse, validate, store, events, trace).
 *
 * The client is `new Stripe(key, { httpClient: Stripe.createFetchHttpClient(f) })` for every side,
 * so only the fetch differs. The simulator runs with `limits: false` (this measures handler cost;
 * the sandbox limiter allows 25 requests per second of virtual time, and the virtual clock does not
 * move here) and `traceLimit: 1000` (memory stays flat).
 *
 * Run: npx tsx bench/in-process-clients.bench.ts
 */
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import nock from 'nock'
import Stripe from 'stripe'
import { Bench } from 'tinybench'
import { createSimulator } from '../src/index.js'
import { type Figure, rateFigure, writeBenchReport } from './lib/bench-report.js'
import { medianOfRounds } from './lib/rounds.js'

const QUICK = process.env.BENCH_QUICK === '1'
const ROUNDS = QUICK ? 1 : 3
const TIME = QUICK ? 200 : 600

type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
const client = (key: string, f: FetchFn) =>
  new Stripe(key, { httpClient: Stripe.createFetchHttpClient(f), maxNetworkRetries: 0, telemetry: false })

const sim = createSimulator({ seed: 1, headerPrefix: 'Stripe', limits: false, traceLimit: 1000 })
const key = sim.platform.secretKey.test
const simClient = client(key, sim.fetch)
const customer = await simClient.customers.create({ email: 'jenny@example.com', name: 'Jenny' })
const intent = await simClient.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer.id })
const customerBody = JSON.stringify(customer)
const intentBody = JSON.stringify(intent)
const answerHeaders = { 'Content-Type': 'application/json', 'Request-Id': 'req_static' }

// The limit: what any fetch must at least do for the client (a Request in, a Response out).
const bare: FetchFn = async (input, init) => {
  const req = new Request(input, init)
  const body = req.url.includes('/payment_intents') ? intentBody : customerBody
  return new Response(body, { status: 200, headers: answerHeaders })
}
const globalFetch: FetchFn = (input, init) => globalThis.fetch(input, init)

const mswServer = setupServer(
  http.post('https://api.stripe.com/v1/customers', () => HttpResponse.json(customer)),
  http.get('https://api.stripe.com/v1/customers/:id', () => HttpResponse.json(customer)),
  http.post('https://api.stripe.com/v1/payment_intents', () => HttpResponse.json(intent)),
)
function nockOn(): void {
  nock('https://api.stripe.com')
    .persist()
    .post('/v1/customers')
    .reply(200, customerBody, answerHeaders)
    .get(/\/v1\/customers\/.+/)
    .reply(200, customerBody, answerHeaders)
    .post('/v1/payment_intents')
    .reply(200, intentBody, answerHeaders)
}
function nockOff(): void {
  nock.cleanAll()
  nock.restore()
}
// nock activates itself on import; start from a clean global fetch.
nockOff()

const calls: Record<string, (s: Stripe) => Promise<unknown>> = {
  'customer create': (s) => s.customers.create({ email: 'jenny@example.com', name: 'Jenny' }),
  'customer retrieve': (s) => s.customers.retrieve(customer.id),
  'payment intent create': (s) => s.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer.id }),
}

const sides = {
  limit: { client: client(key, bare), on: () => {}, off: () => {} },
  nock: {
    client: client(key, globalFetch),
    on: () => {
      nock.activate()
      nockOn()
    },
    off: nockOff,
  },
  msw: {
    client: client(key, globalFetch),
    on: () => mswServer.listen({ onUnhandledRequest: 'error' }),
    off: () => mswServer.close(),
  },
  sim: { client: simClient, on: () => {}, off: () => {} },
} as const
type Side = keyof typeof sides

async function round(call: string): Promise<Record<Side, number>> {
  const fn = calls[call] as (s: Stripe) => Promise<unknown>
  const bench = new Bench({ time: TIME, warmupTime: 100 })
  for (const [name, side] of Object.entries(sides)) {
    bench.add(
      name,
      async () => {
        await fn(side.client)
      },
      { beforeAll: side.on, afterAll: side.off },
    )
  }
  await bench.run()
  const out = {} as Record<Side, number>
  for (const t of bench.tasks) {
    const r = t.result as unknown as { throughput?: { mean: number }; error?: unknown }
    if (r.throughput === undefined) throw new Error(`${call} / ${t.name} failed: ${String(r.error)}`)
    out[t.name as Side] = r.throughput.mean
  }
  return out
}

const figures: Figure[] = []
const notes: string[] = [
  'Same official client (stripe 23, createFetchHttpClient, maxNetworkRetries 0, telemetry off) on every side; only its fetch differs.',
  'limit = a fetch that builds the Request and a canned Response; nock = static persisted interceptor on global fetch; msw = static setupServer handler; service-sim = sim.fetch with limits: false, traceLimit: 1000.',
  `Median of ${ROUNDS} rounds of tinybench (${TIME} ms per task per round); rates are calls/s.`,
]
for (const call of Object.keys(calls)) {
  const r = await medianOfRounds(
    ROUNDS,
    () => round(call),
    (x) => x.sim / x.msw,
  )
  figures.push(
    rateFigure(`${call}: limit (bare Request/Response)`, r.limit, 'calls/s'),
    rateFigure(`${call}: static nock interceptor`, r.nock, 'calls/s'),
    rateFigure(`${call}: static msw handler`, r.msw, 'calls/s'),
    rateFigure(`${call}: service-sim vs msw`, r.sim, 'calls/s', { name: 'static msw handler', value: r.msw }, 3),
    rateFigure(`${call}: service-sim vs nock`, r.sim, 'calls/s', { name: 'static nock interceptor', value: r.nock }, 15),
    rateFigure(`${call}: service-sim vs limit`, r.sim, 'calls/s', { name: 'bare Request/Response', value: r.limit }, 0.5),
  )
}
writeBenchReport('in-process-clients', figures, notes)
