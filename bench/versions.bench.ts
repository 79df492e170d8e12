/**
 * Cost of answering at an older API version: the same request (retrieving a paid subscription
 * invoice with its lines, and a succeeded payment intent; and creating a customer) at the current version and pinned five
 * versions back, side by side in one process, rounds alternating which side runs first. The walk
 * back (hand-written moves and the generated field facts) is the difference. A row for 2022-08-01,
 * the oldest shapes most sample apps pin, is reported beside it.
 *
 * Run: npx tsx bench/versions.bench.ts
 */
import { Bench } from 'tinybench'
import { servedVersions } from '../src/catalogue/versions.js'
import { createSimulator } from '../src/index.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'

const quick = process.env.BENCH_QUICK === '1'
const ROUNDS = quick ? 2 : 10
const ITERATIONS = quick ? 200 : 2000
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
async function request(version: string | undefined, create: boolean): Promise<void> {
  const path = create
    ? '/v1/customers'
    : n++ % 2 === 0
      ? `/v1/invoices/${String(sub.latest_invoice)}`
      : `/v1/payment_intents/${String(pi.id)}`
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` }
  if (version !== undefined) headers['Service-Version'] = version
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
const sides: Array<[string, string | undefined, boolean]> = [
  [`current version (${current})`, undefined, false],
  [`five versions back (${fiveBack})`, fiveBack, false],
  ['2022-08-01', '2022-08-01', false],
  [`current version (${current}), customer create`, undefined, true],
  [`five versions back (${fiveBack}), customer create`, fiveBack, true],
]
const totals = new Map<string, number[]>(sides.map(([name]) => [name, []]))
for (let r = 0; r < ROUNDS; r++) {
  const bench = new Bench({ iterations: ITERATIONS, time: 0, warmupIterations: 50 })
  const order = r % 2 === 0 ? sides : [...sides].reverse()
  for (const [name, version, create] of order) bench.add(name, () => request(version, create))
  await bench.run()
  for (const [name] of sides) {
    const result = bench.getTask(name)?.result as unknown as { latency?: { mean: number }; error?: unknown }
    if (result?.latency === undefined) throw new Error(`${name} failed: ${String(result?.error)}`)
    totals.get(name)!.push(result.latency.mean * 1000)
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const us = (name: string) => median(totals.get(name)!)
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
    `Median of ${ROUNDS} rounds of ${ITERATIONS} requests per side (GET an invoice with its line, GET a payment intent, alternating), sides alternating order per round.`,
    'At the current version the edge compares one string and walks nothing. A retrieve walked back is kept with the objects it read and reused while they are the same (the engine replaces an object on every change), as the current answer keeps its text; a create walks a fresh object every time.',
  ],
)
