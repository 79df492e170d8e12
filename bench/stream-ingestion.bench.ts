/**
 * Meter event stream ingestion through `sim.fetch`, 100 events per request, side by side with a
 * baseline that only `JSON.parse`s the same bodies and inserts each event into a `Map`.
 *
 * Part 1 (tinybench, one process): events/s of both over the same pre-built bodies; the simulator
 * task includes asynchronous processing (the clock is advanced so batches are validated,
 * deduplicated and aggregated while the run goes on).
 * Part 2: 1M events spread over 24 hours of virtual time, then 12 more hours of traffic: cost per
 * request per slice while the 24-hour dedup index grows to its full size and then turns over, heap
 * after 1M events, and heap once the 24-hour window has passed.
 *
 * Run: npx tsx --expose-gc bench/stream-ingestion.bench.ts
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Bench } from 'tinybench'
import { createSimulator, type Simulator } from '../src/index.js'

const EVENTS_PER_REQUEST = 100
const CUSTOMERS = 50

setFlagsFromString('--expose-gc')
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void

function body(request: number, prefix: string): string {
  let out = '{"events":['
  for (let j = 0; j < EVENTS_PER_REQUEST; j++) {
    if (j > 0) out += ','
    out += `{"identifier":"${prefix}-${request}-${j}","event_name":"api_call","payload":{"service_customer_id":"cus_${(request * 7 + j) % CUSTOMERS}","value":"${(j % 9) + 1}"}}`
  }
  return `${out}]}`
}

function heapMb(): number {
  gc()
  gc()
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10
}

interface Stream {
  sim: Simulator
  send(text: string): Promise<Response>
}

async function openStream(stripBodies = false): Promise<Stream> {
  // Limits off: this measures ingestion, not the (virtual-time) rate limiter.
  const sim = createSimulator({ seed: 7, traceLimit: 1000, limits: false })
  if (stripBodies) {
    // What-if only: the core's per-request `http` trace entry hashes the whole request text through
    // canonical JSON (escaping every quote of a 15 KB body); this measures the simulator without it.
    const append = sim.trace.append.bind(sim.trace)
    ;(sim.trace as { append: typeof append }).append = (kind, data) =>
      append(kind, kind === 'http' ? { ...data, request: '', response: '' } : data)
  }
  sim.admin.createMeter({ eventName: 'api_call' })
  const key = sim.platform.secretKey.test
  let token = ''
  let renewAt = 0
  async function renew(): Promise<void> {
    const res = await sim.fetch('https://api.service.test/v2/billing/meter_event_session', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
    })
    const session = (await res.json()) as { authentication_token: string }
    token = session.authentication_token
    renewAt = sim.clock.now + 10 * 60_000
  }
  await renew()
  const url = 'https://meter-events.service.test/v2/billing/meter_event_stream'
  return {
    sim,
    async send(text) {
      if (sim.clock.now >= renewAt) await renew()
      return sim.fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: text,
      })
    },
  }
}

/**
 * One round: both tasks over the same fresh bodies. Rounds alternate so that load from other
 * processes on a shared machine hits both sides; the median round is reported.
 */
async function round(r: number, requests: number) {
  const bodies = Array.from({ length: requests }, (_, i) => body(i, `p1r${r}`))
  const stream = await openStream()
  const whatIf = await openStream(true)
  let b = 0
  let s = 0
  let w = 0
  const map = new Map<string, unknown>()
  const bench = new Bench({ iterations: requests, time: 0, warmup: false })
  bench
    .add('baseline: JSON.parse + Map.set per event', () => {
      const parsed = JSON.parse(bodies[b++ % requests] as string) as { events: { identifier: string }[] }
      for (const ev of parsed.events) map.set(ev.identifier, ev)
    })
    .add('sim.fetch meter_event_stream (processing included)', async () => {
      const res = await stream.send(bodies[s++ % requests] as string)
      if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`)
      // Let the seeded processing delay (<= 5 s) elapse every 50 requests so batches are processed in the run.
      if (s % 50 === 0) await stream.sim.clock.tickAsync(5_000)
    })
    .add('what-if: sim.fetch without request/response text in the http trace entry', async () => {
      const res = await whatIf.send(bodies[w++ % requests] as string)
      if (res.status !== 200) throw new Error(`stream answered ${res.status}`)
      if (w % 50 === 0) await whatIf.sim.clock.tickAsync(5_000)
    })
  await bench.run()
  await stream.sim.clock.tickAsync(5_000)
  const processed = stream.sim.admin.meterStats().processedEvents
  if (processed !== requests * EVENTS_PER_REQUEST)
    throw new Error(`processed ${processed} events, expected ${requests * EVENTS_PER_REQUEST}`)
  const rows = bench.tasks.map((t) => {
    const r = t.result as unknown as { latency: { mean: number }; error?: unknown }
    if (r.latency === undefined) throw new Error(`${t.name} failed: ${String(r.error)}`)
    const meanMs = r.latency.mean
    return {
      task: t.name,
      mean_us_per_request: Math.round(meanMs * 1000 * 10) / 10,
      events_per_second: Math.round((EVENTS_PER_REQUEST * 1000) / meanMs),
    }
  })
  const [base, sim, what] = rows as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number]]
  const r3 = (x: number) => Math.round(x * 1000) / 1000
  return {
    rows,
    ratio: r3(sim.events_per_second / base.events_per_second),
    whatIfRatio: r3(what.events_per_second / base.events_per_second),
    processed,
  }
}

async function part1() {
  const rounds = []
  for (let r = 0; r < 5; r++) rounds.push(await round(r, 1000))
  const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio)
  const median = sorted[Math.floor(sorted.length / 2)] as (typeof rounds)[number]
  const whatIfs = rounds.map((r) => r.whatIfRatio).sort((a, b) => a - b)
  return {
    rows: median.rows,
    ratio: median.ratio,
    ratios: rounds.map((r) => r.ratio),
    whatIfRatio: whatIfs[Math.floor(whatIfs.length / 2)] as number,
    whatIfRatios: rounds.map((r) => r.whatIfRatio),
    processed: median.processed,
  }
}

async function part2() {
  const stream = await openStream()
  const { sim } = stream
  const day = 24 * 3_600_000
  const total = 15_000 // 10,000 requests (1M events) over 24 h, then 5,000 more over 12 h
  const step = day / 10_000 // virtual ms between requests
  const slice = 1_000
  const slices: { requests: string; identifiers_before: number; us_per_request: number }[] = []
  let heapAfter1M = 0
  let identifiersAfter1M = 0
  const heapStart = heapMb()
  let chunk: string[] = []
  for (let i = 0; i < total; i += slice) {
    chunk = Array.from({ length: slice }, (_, k) => body(i + k, 'p2'))
    const identifiersBefore = sim.admin.meterStats().identifiers
    let spent = 0
    for (let k = 0; k < slice; k++) {
      const t0 = performance.now()
      const res = await stream.send(chunk[k] as string)
      if ((k + 1) % 10 === 0) await sim.clock.tickAsync(step * 10)
      spent += performance.now() - t0
      if (res.status !== 200) throw new Error(`stream answered ${res.status}`)
    }
    slices.push({
      requests: `${i}-${i + slice - 1}`,
      identifiers_before: identifiersBefore,
      us_per_request: Math.round((spent / slice) * 1000 * 10) / 10,
    })
    if (i + slice === 10_000) {
      await sim.clock.tickAsync(5_000)
      chunk = []
      identifiersAfter1M = sim.admin.meterStats().identifiers
      heapAfter1M = heapMb()
    }
  }
  chunk = []
  await sim.clock.tickAsync(day + 60_000)
  const stats = sim.admin.meterStats()
  const heapAfterWindow = heapMb()
  return {
    heapStart,
    heapAfter1M,
    identifiersAfter1M,
    heapAfterWindow,
    identifiersAfterWindow: stats.identifiers,
    processed: stats.processedEvents,
    duplicates: stats.duplicateEvents,
    slices,
  }
}

const loadBefore = loadavg().map((l) => Math.round(l * 100) / 100)
const p1 = await part1()
console.table(p1.rows)
console.log(
  `ratio sim/baseline (median of ${p1.ratios.length} rounds): ${p1.ratio}; rounds ${p1.ratios.join(', ')} (target >= 0.5)`,
)
console.log(`what-if ratio without bodies in the http trace entry: ${p1.whatIfRatio}; rounds ${p1.whatIfRatios.join(', ')}`)
const p2 = await part2()
console.table(p2.slices)
console.log(
  `heap: start ${p2.heapStart} MB, after 1M events ${p2.heapAfter1M} MB (${p2.identifiersAfter1M} identifiers), after the 24 h window ${p2.heapAfterWindow} MB (${p2.identifiersAfterWindow} identifiers)`,
)

const report = {
  bench: 'stream-ingestion',
  node: process.version,
  cpus: cpus().length,
  load_average_at_start: loadBefore,
  events_per_request: EVENTS_PER_REQUEST,
  part1: p1,
  part2: p2,
}
writeFileSync('reports/bench/stream-ingestion.json', `${JSON.stringify(report, null, 2)}\n`)
const md = [
  '# Stream ingestion benchmark',
  '',
  `Node ${process.version}, ${cpus().length} cores, load average at start ${loadBefore.join(' / ')} (the machine is shared; figures vary between rounds). \`npx tsx --expose-gc bench/stream-ingestion.bench.ts\`. ${EVENTS_PER_REQUEST} events per request; simulator with \`traceLimit: 1000\`.`,
  '',
  '## Throughput (tinybench, same bodies, one process)',
  '',
  '| task | mean µs/request | events/s |',
  '| --- | ---: | ---: |',
  ...p1.rows.map((r) => `| ${r.task} | ${r.mean_us_per_request} | ${r.events_per_second.toLocaleString('en-US')} |`),
  '',
  `**Ratio simulator / baseline: ${p1.ratio}** (median of ${p1.ratios.length} alternating rounds of 1,000 requests: ${p1.ratios.join(', ')}; target ≥ 0.5). Rows above are the median round. The simulator figure includes asynchronous processing (validation, 24-hour dedup, aggregation) of every event (${p1.processed.toLocaleString('en-US')} per round, checked). Rate limits are off (\`limits: false\`): the virtual clock barely moves, so the sandbox limiter would refuse most requests.`,
  '',
  `What-if (not the product): the same simulator with the request/response text left out of the core's per-request \`http\` trace entry reaches **${p1.whatIfRatio}** of the baseline (rounds ${p1.whatIfRatios.join(', ')}). Hashing the 15 KB body through canonical JSON on every request is the largest single cost left, and it sits in the core (handler/trace), outside the metering code.`,
  '',
  '## Cost per request as the 24-hour dedup index grows and turns over',
  '',
  '1M events over 24 h of virtual time (10,000 requests), then 500k more over 12 h while the oldest identifiers expire.',
  '',
  '| requests | identifiers in index before | µs/request (incl. processing) |',
  '| --- | ---: | ---: |',
  ...p2.slices.map((s) => `| ${s.requests} | ${s.identifiers_before.toLocaleString('en-US')} | ${s.us_per_request} |`),
  '',
  '## Heap',
  '',
  `- start: ${p2.heapStart} MB`,
  `- after 1M events: ${p2.heapAfter1M} MB (${p2.identifiersAfter1M.toLocaleString('en-US')} identifiers remembered)`,
  `- after the 24-hour window passed with no traffic: ${p2.heapAfterWindow} MB (${p2.identifiersAfterWindow} identifiers remembered)`,
  '',
  'What stays after the window: the minute-bucket aggregates (50 customers × 36 h of minutes) and the last',
  '1,000 trace entries, each holding its request body (about 15 KB for 100 events).',
  '',
]
writeFileSync('reports/bench/stream-ingestion.md', md.join('\n'))
