/**
 * Cost of answering at an older API version: the same request (retrieving a paid subscription
 * invoice with its lines, and a succeeded payment intent; and creating a customer) at the current version and pinned five
 * versions back, side by side in one process, rounds alternating which side runs first. The walk
 * back (hand-written moves and the generated field facts) is the difference. A row for 2022-08-01,
 * the oldest shapes most sample apps pin, is reported beside it.
 *
 * Run: npx tsx bench/versions.bench.ts
 */
import { performance } from 'node:perf_hooks'
import { Bench } from 'tinybench'
import { servedVersions } from '../src/catalogue/versions.js'
import { createSimulator } from '../src/index.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'

const quick = process.env.BENCH_QUICK === '1'
const ITERATIONS = quick ? 200 : 2000
const PAIRS = quick ? 500 : 10_000
const TARGET = 1.3

const sim = createSimulator({ seed: 1, traceLimit: 100, limits: false })
const key = sim.platform.secretKey.test
const post = async (path: string, body: string) => {
  const res = await sim.fetch(`https://api.service.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  })
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as Record<string, unknown>
}
const customer = await post('/v1/customers', 'payment_method=pm_card_visa&invoice_settings[default_payment_method]=pm_card_visa')
const product = await post('/v1/products', 'name=Plan')
const price = await post('/v1/prices', `product=${product.id}&unit_amount=900&currency=usd&recurring[interval]=month`)
const sub = await post('/v1/subscriptions', `customer=${customer.id}&items[0][price]=${price.id}`)
const pi = await post(
  '/v1/payment_intents',
  'amount=1500&currency=usd&payment_method=pm_card_visa&confirm=true&automatic_payment_methods[enabled]=true&automatic_payment_methods[allow_redirects]=never',
)

let n = 0
async function request(version: string, create: boolean): Promise<void> {
  const path = create
    ? '/v1/customers'
    : n++ % 2 === 0
      ? `/v1/invoices/${String(sub.latest_invoice)}`
      : `/v1/payment_intents/${String(pi.id)}`
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` }
  headers['Service-Version'] = version
  if (create) headers['Content-Type'] = 'application/x-www-form-urlencoded'
  const res = await sim.fetch(`https://api.service.test${path}`, {
    headers,
    ...(create ? { method: 'POST', body: 'email=a%40b.test' } : {}),
  })
  if (res.status !== 200) throw new Error(`${version ?? 'current'} answered ${res.status}: ${await res.text()}`)
  await res.arrayBuffer()
}

const current = servedVersions()[0]!.version
const fiveBack = servedVersions()[5]!.version
// A client pinned to the current version sends it too: the header is read on both sides.
const sides: Array<[string, string, boolean]> = [
  [`current version (${current})`, current, false],
  [`five versions back (${fiveBack})`, fiveBack, false],
  ['2022-08-01', '2022-08-01', false],
  [`current version (${current}), customer create`, current, true],
  [`five versions back (${fiveBack}), customer create`, fiveBack, true],
]

// Warm-up and a first look with tinybench (means, moved by garbage collection and other processes).
const bench = new Bench({ iterations: ITERATIONS, time: 0, warmupIterations: 50 })
for (const [name, version, create] of sides) bench.add(name, () => request(version, create))
await bench.run()
const means = sides.map(([name]) => {
  const result = bench.getTask(name)?.result as unknown as { latency?: { mean: number }; error?: unknown }
  if (result?.latency === undefined) throw new Error(`${name} failed: ${String(result?.error)}`)
  return `${name}: mean ${(result.latency.mean * 1000).toFixed(1)} µs`
})

// The headline: paired samples, one request of each side in turn (the order rotating), so a burst
// of load from elsewhere hits all sides alike; the median per side.
const samples = new Map<string, number[]>(sides.map(([name]) => [name, []]))
for (let i = 0; i < PAIRS; i++) {
  for (let j = 0; j < sides.length; j++) {
    const [name, version, create] = sides[(i + j) % sides.length]!
    const t0 = performance.now()
    await request(version, create)
    samples.get(name)!.push((performance.now() - t0) * 1000)
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const us = (name: string) => median(samples.get(name)!)
const figure = (name: string, baseName: string, target?: number): Figure => {
  const base = { name: baseName, value: us(baseName) }
  const value = us(name)
  const ratio = value / base.value
  return {
    name: `request at ${name} vs current`,
    value,
    unit: 'µs/request',
    baseline: base,
    ratio,
    better: 'lower',
    ...(target === undefined ? {} : { target: `<= ${target}x`, pass: ratio <= target }),
  }
}
writeBenchReport(
  'versions',
  [figure(sides[1]![0], sides[0]![0], TARGET), figure(sides[2]![0], sides[0]![0]), figure(sides[4]![0], sides[3]![0], TARGET)],
  [
    `Median of ${PAIRS} paired samples per side (retrieves alternate GET an invoice with its line and GET a payment intent; creates POST a customer), the sides taking turns.`,
    'At the current version the edge compares one string and walks nothing. A retrieve walked back is kept with the objects it read and reused while they are the same (the engine replaces an object on every change), as the current answer keeps its text; a create walks a fresh object every time.',
    `tinybench means (warm-up, noisier): ${means.join('; ')}.`,
  ],
)
