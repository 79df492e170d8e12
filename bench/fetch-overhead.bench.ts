// Per-request cost of sim.fetch for a simple GET against only building the Request and Response
// objects of the same exchange, in one process. Target: sim.fetch under 3x the baseline.
// limits: false: the sandbox limit (25 requests per second of virtual time) would answer 429 to a
// burst on an unmoving clock; this measures the pipeline, the admission bench measures the limits.
import { Bench } from 'tinybench'
import { createSimulator } from '../src/index.js'
import { writeBenchReport } from './lib/bench-report.js'

const sim = createSimulator({ seed: 1, traceLimit: 1000, limits: false })
const url = 'https://api.service.test/v1/account'
const headers = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
const account = await (await sim.fetch(url, { headers })).json()
const body = JSON.stringify(account)

const bench = new Bench({ time: 2000, warmupTime: 300 })
bench
  .add('baseline: new Request + new Response', async () => {
    const req = new Request(url, { headers })
    const res = new Response(body, { status: 200, headers: { 'Content-Type': 'application/json', 'Request-Id': 'req_x' } })
    if (req.method !== 'GET' || res.status !== 200) throw new Error('unreachable')
  })
  .add('sim.fetch GET /v1/account', async () => {
    const res = await sim.fetch(url, { headers })
    if (res.status !== 200) throw new Error(`status ${res.status}`)
  })
await bench.run()

const [base, simTask] = bench.tasks.map((t) => {
  const r = t.result as { throughput?: { mean: number }; latency?: { mean: number }; error?: unknown }
  if (r.throughput === undefined) throw new Error(`${t.name} failed: ${String(r.error)}`)
  return { name: t.name, hz: r.throughput?.mean ?? 0, us: (r.latency?.mean ?? 0) * 1000 }
})
if (!base || !simTask) throw new Error('bench did not run')
const costRatio = simTask.us / base.us
writeBenchReport(
  'fetch-overhead',
  [
    { name: base.name, value: base.hz, unit: 'ops/s' },
    {
      name: simTask.name,
      value: simTask.hz,
      unit: 'req/s',
      baseline: { name: base.name, value: base.hz },
      ratio: simTask.hz / base.hz,
      target: '>= 0.5x',
      pass: simTask.hz / base.hz >= 0.5,
    },
    {
      name: 'cost per request, sim.fetch / baseline',
      value: costRatio,
      unit: 'x',
      target: '< 3x',
      pass: costRatio < 3,
    },
  ],
  [`mean latency: baseline ${base.us.toFixed(2)} µs, sim.fetch ${simTask.us.toFixed(2)} µs`],
)
