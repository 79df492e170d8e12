// What the causal effect recorder adds to a flow run, side by side in one process: a delivery's
// handling with and without its AsyncLocalStorage context, an API read (body read) through the
// wrapped env.fetch and through sim.fetch, and the cost of recording one effect with its context.
// Target: an app that records nothing pays under 5% on a delivery's handling and reads.
import { cpus, loadavg } from 'node:os'
import { Bench } from 'tinybench'
import { CausalRecorder } from '../src/harness/index.js'
import { createSimulator } from '../src/index.js'
import { writeBenchReport } from './lib/bench-report.js'

const sim = createSimulator({ seed: 1, traceLimit: 1000, limits: false })
const headers = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
const made = await (await sim.fetch('https://api.service.test/v1/customers', { method: 'POST', headers })).json()
const url = `https://api.service.test/v1/customers/${String(made.id)}`
const causal = new CausalRecorder(sim)
const wrapped = causal.wrapFetch(sim.fetch)
const raw = JSON.stringify({ id: 'evt_1', type: 'customer.updated', data: { object: made } })
// A handler's own work: it parses the event and answers.
const handle = async () => {
  JSON.parse(raw)
  return new Response('ok')
}

const bench = new Bench({ time: 1500, warmupTime: 300 })
bench
  .add('delivery handled (plain)', async () => void (await handle()))
  .add('delivery handled in its causal context', async () => void (await causal.handling(raw, handle)))
  .add('API read, body read (sim.fetch)', async () => void (await (await sim.fetch(url, { headers })).json()))
  .add('API read, body read (wrapped env.fetch)', async () => void (await (await wrapped(url, { headers })).json()))
  .add('effect recorded in a delivery context', async () => {
    await causal.handling(raw, async () => {
      causal.record('email.welcome', String(made.id))
      return new Response('ok')
    })
  })
await bench.run()

const rows = bench.tasks.map((t) => {
  const r = t.result as { throughput?: { mean: number }; latency?: { mean: number }; error?: unknown }
  if (r.throughput === undefined) throw new Error(`${t.name} failed: ${String(r.error)}`)
  // Per-op time from throughput: the latency mean carries the outliers of a loaded machine.
  return { name: t.name, hz: r.throughput.mean, us: 1e6 / r.throughput.mean }
})
const [plain, inContext, read, wrappedRead, effect] = rows
if (!plain || !inContext || !read || !wrappedRead || !effect) throw new Error('bench did not run')
console.table(rows.map((r) => ({ task: r.name, 'ops/s': r.hz.toFixed(0), 'us/op': r.us.toFixed(2) })))
const handlingRatio = inContext.us / plain.us
const readRatio = wrappedRead.us / read.us
console.log(
  `handling: x${handlingRatio.toFixed(2)} (+${(inContext.us - plain.us).toFixed(2)} us); read: x${readRatio.toFixed(3)}`,
)
writeBenchReport(
  'effect-recorder',
  rows.map((r) => ({ name: r.name, value: r.hz, unit: 'ops/s' })),
  [
    `A delivery's causal context costs +${(inContext.us - plain.us).toFixed(2)} us per delivery (x${handlingRatio.toFixed(2)} of a bare handler that only parses the event; a real handler does far more).`,
    `An API read through the wrapped env.fetch: x${readRatio.toFixed(3)} of sim.fetch (body read and noted).`,
    `Recording one effect with its context (event parsed, provider state looked up, trace entry): ${effect.us.toFixed(1)} us per delivery.`,
    `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (shared with other sessions; figures move with it).`,
  ],
)
