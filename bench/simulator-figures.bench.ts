/**
 * The simulator's remaining figures, each side by side with its limit in one process:
 *
 * - synchronous meter events (POST /v2/billing/meter_events through `sim.fetch`) against bare
 *   construction of the same Request and Response;
 * - cost per call (customer create + retrieve through `sim.fetch`) in a simulator with an empty store
 *   against one holding a million stored customers (and their `customer.created` events);
 * - property runs per second (fast-check: a fresh simulator per run, a few calls, a check);
 * - `createSimulator` cold start (a fresh node process: import of the sources + first simulator)
 *   and warm (another simulator in a warm process).
 *
 * Simulators run with `limits: false` (handler cost, not the virtual-time limiter, which would
 * refuse a burst on an unmoving clock) and `traceLimit: 1000` (the held trace does not grow; the
 * hash still covers every entry).
 *
 * Run: npx tsx bench/simulator-figures.bench.ts
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { Bench } from 'tinybench'
import { NO_ORIGIN } from '../src/domain/events/emit-snapshot.js'
import { createSimulator, type Simulator } from '../src/index.js'
import { type Figure, rateFigure, writeBenchReport } from './lib/bench-report.js'
import { medianOfRounds } from './lib/rounds.js'

const QUICK = process.env.BENCH_QUICK === '1'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const STORED = QUICK ? 100_000 : 1_000_000
const figures: Figure[] = []
const notes: string[] = [
  'Simulators here run with limits: false (handler cost; the limiter works on virtual time, which does not move in a burst) and traceLimit: 1000.',
]
const hz = (bench: Bench, name: string): number => {
  const r = bench.getTask(name)?.result as unknown as { throughput?: { mean: number }; error?: unknown }
  if (r?.throughput === undefined) throw new Error(`${name} failed: ${String(r?.error)}`)
  return r.throughput.mean
}

// --- synchronous meter events ---------------------------------------------------------------
{
  const sim = createSimulator({ seed: 3, limits: false, traceLimit: 1000 })
  sim.admin.createMeter({ eventName: 'api_call' })
  const url = 'https://api.service.test/v2/billing/meter_events'
  const headers = { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/json' }
  let n = 0
  const body = () =>
    JSON.stringify({
      event_name: 'api_call',
      identifier: `sync-${n++}`,
      payload: { service_customer_id: `cus_${n % 50}`, value: '3' },
    })
  const first = await sim.fetch(url, { method: 'POST', headers, body: body() })
  if (first.status !== 200) throw new Error(`meter event answered ${first.status}: ${await first.text()}`)
  const answer = await first.text()
  const round = async () => {
    const bench = new Bench({ time: QUICK ? 200 : 600, warmupTime: 100 })
    bench
      .add('limit', async () => {
        const req = new Request(url, { method: 'POST', headers, body: body() })
        const res = new Response(answer, { status: 200, headers: { 'Content-Type': 'application/json' } })
        if (req.method !== 'POST' || res.status !== 200) throw new Error('unreachable')
      })
      .add('sim', async () => {
        const res = await sim.fetch(url, { method: 'POST', headers, body: body() })
        if (res.status !== 200) throw new Error(`meter event answered ${res.status}: ${await res.text()}`)
        await res.arrayBuffer()
      })
    await bench.run()
    return { limit: hz(bench, 'limit'), sim: hz(bench, 'sim') }
  }
  const r = await medianOfRounds(QUICK ? 1 : 3, round, (x) => x.sim / x.limit)
  figures.push(
    rateFigure('sync meter events: limit (bare Request/Response)', r.limit, 'req/s'),
    rateFigure('sync meter events: sim.fetch', r.sim, 'req/s', { name: 'bare Request/Response', value: r.limit }, 0.5),
  )
}

// --- cost per call, empty store against a million stored objects --------------------------
{
  const form = (sim: Simulator) => ({
    Authorization: `Bearer ${sim.platform.secretKey.test}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  })
  const empty = createSimulator({ seed: 4, limits: false, traceLimit: 1000 })
  const full = createSimulator({ seed: 4, limits: false, traceLimit: 1000 })
  const t0 = performance.now()
  const scope = { account: full.platform.id, mode: 'test' as const }
  for (let i = 0; i < STORED; i++) full.service.customers.create(scope, { email: `c${i}@example.com` }, NO_ORIGIN)
  const seeded = performance.now() - t0
  const call = async (sim: Simulator) => {
    const created = await sim.fetch('https://api.service.test/v1/customers', {
      method: 'POST',
      headers: form(sim),
      body: 'email=jenny%40example.com&name=Jenny',
    })
    const { id } = (await created.json()) as { id: string }
    const got = await sim.fetch(`https://api.service.test/v1/customers/${id}`, { headers: form(sim) })
    if (got.status !== 200) throw new Error(`retrieve answered ${got.status}`)
    await got.arrayBuffer()
  }
  const calls = QUICK ? 300 : 1000
  const timed = async (sim: Simulator) => {
    const s = performance.now()
    for (let i = 0; i < calls; i++) await call(sim)
    return ((performance.now() - s) * 1000) / calls
  }
  await timed(empty)
  await timed(full)
  // Alternating rounds, pooled: one side never pays alone for another process's burst.
  let e = 0
  let f = 0
  const rounds = QUICK ? 4 : 10
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      e += await timed(empty)
      f += await timed(full)
    } else {
      f += await timed(full)
      e += await timed(empty)
    }
  }
  const emptyUs = e / rounds
  const fullUs = f / rounds
  const ratio = fullUs / emptyUs
  figures.push(
    { name: 'customer create + retrieve, empty store', value: emptyUs, unit: 'µs/pair' },
    {
      name: `customer create + retrieve, ${STORED.toLocaleString('en-US')} stored customers`,
      value: fullUs,
      unit: 'µs/pair',
      baseline: { name: 'empty store', value: emptyUs },
      ratio,
      better: 'lower',
      target: '<= 1.2x',
      pass: ratio <= 1.2,
    },
  )
  notes.push(
    `Flat cost: ${STORED.toLocaleString('en-US')} customers (each with its customer.created event) stored through the domain in ${(seeded / 1000).toFixed(1)} s, then ${rounds} alternating rounds of ${calls} create+retrieve pairs per side, pooled.`,
  )
}

// --- property runs per second ----------------------------------------------------------------
if (existsSync(new URL('./property-runs.bench.ts', import.meta.url))) {
  notes.push('Property runs: measured by bench/property-runs.bench.ts.')
} else {
  const runs = QUICK ? 100 : 400
  const property = fc.asyncProperty(
    fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    fc.array(fc.emailAddress(), { minLength: 1, maxLength: 3 }),
    async (seed, emails) => {
      const sim = createSimulator({ seed, limits: false, traceLimit: 1000 })
      const headers = {
        Authorization: `Bearer ${sim.platform.secretKey.test}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      }
      for (const email of emails) {
        const res = await sim.fetch('https://api.service.test/v1/customers', {
          method: 'POST',
          headers,
          body: `email=${encodeURIComponent(email)}`,
        })
        if (res.status !== 200) return false
        const { id } = (await res.json()) as { id: string }
        const got = (await (await sim.fetch(`https://api.service.test/v1/customers/${id}`, { headers })).json()) as {
          email: string
        }
        if (got.email !== email.toLowerCase() && got.email !== email) return false
      }
      return true
    },
  )
  await fc.assert(property, { numRuns: 20, seed: 1 })
  const s = performance.now()
  await fc.assert(property, { numRuns: runs, seed: 2 })
  const perSecond = runs / ((performance.now() - s) / 1000)
  figures.push({
    name: 'property runs (fresh simulator, 1-3 customer create+retrieve, check)',
    value: perSecond,
    unit: 'runs/s',
    target: '>= 200/s',
    pass: perSecond >= 200,
  })
  notes.push(`Property runs: no bench/property-runs.bench.ts yet, so a simple fast-check property, ${runs} runs.`)
}

// --- createSimulator cold start and warm ----------------------------------------------------
{
  const script = [
    'const t0 = performance.now()',
    `const { createSimulator } = await import(${JSON.stringify(`${ROOT}src/index.ts`)})`,
    'const t1 = performance.now()',
    'createSimulator({ seed: 1 })',
    'const t2 = performance.now()',
    'console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1 }))',
  ].join('\n')
  const samples: { importMs: number; firstMs: number }[] = []
  for (let i = 0; i < (QUICK ? 2 : 5); i++) {
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    })
    if (out.status !== 0) throw new Error(`cold start child failed: ${out.stderr}`)
    samples.push(JSON.parse(out.stdout.trim().split('\n').pop() as string))
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
  const importMs = med(samples.map((s) => s.importMs))
  const firstMs = med(samples.map((s) => s.firstMs))
  const bench = new Bench({ time: QUICK ? 300 : 1000 })
  bench.add('warm', () => {
    createSimulator({ seed: 1 })
  })
  await bench.run()
  const warmMs = 1000 / hz(bench, 'warm')
  figures.push(
    { name: 'createSimulator cold: import of the sources', value: importMs, unit: 'ms' },
    { name: 'createSimulator cold: first simulator', value: firstMs, unit: 'ms' },
    { name: 'createSimulator warm', value: warmMs, unit: 'ms' },
  )
  notes.push(
    'Cold start: median of fresh node processes importing src/index.ts through tsx (transpile included, tsx cache warm), then the first createSimulator().',
  )
}

writeBenchReport('simulator-figures', figures, notes)
