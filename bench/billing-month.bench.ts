/**
 * A billing month: 1,000 metered subscriptions, 3,000,000 streamed meter events over January
 * (plus resent duplicates and late events), the period end, invoices finalized and paid; side by
 * side in one process with the stream ingestion of the same events alone, so the ratio shows what
 * billing adds. `BENCH_QUICK=1` runs a tenth of it.
 *
 * Run: npx tsx --expose-gc bench/billing-month.bench.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createSimulator, type Simulator } from '../src/index.js'

const QUICK = process.env.BENCH_QUICK === '1'
const SUBSCRIPTIONS = QUICK ? 100 : 1_000
const EVENTS = QUICK ? 300_000 : 3_000_000
const PER_REQUEST = 100
const REQUESTS = EVENTS / PER_REQUEST
const DUPLICATE_EVERY = 50 // every 50th request is sent twice (a retried batch)
const LATE_EVERY = 20 // every 20th request carries events stamped 6 hours late
const START = Date.UTC(2026, 0, 1)
const MONTH_END = Date.UTC(2026, 1, 1)
const STEP = Math.floor((MONTH_END - START - 3_600_000) / REQUESTS)

setFlagsFromString('--expose-gc')
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void
const heapMb = () => Math.round(process.memoryUsage().heapUsed / 1048576)

function body(r: number, customers: readonly string[], now: number): string {
  const late = r % LATE_EVERY === 0 ? `,"timestamp":"${new Date(now - 6 * 3_600_000).toISOString()}"` : ''
  let out = '{"events":['
  for (let j = 0; j < PER_REQUEST; j++) {
    if (j > 0) out += ','
    const c = customers[(r * 7 + j) % customers.length]
    out += `{"identifier":"e-${r}-${j}","event_name":"api_call"${late},"payload":{"stripe_customer_id":"${c}","value":"${(j % 9) + 1}"}}`
  }
  return `${out}]}`
}

async function form(sim: Simulator, path: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await sim.fetch(`https://api.stripe.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
  const json = (await res.json()) as Record<string, unknown>
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

function makeSim(): Simulator {
  return createSimulator({ seed: 15, start: START, headerPrefix: 'Stripe', limits: false, traceLimit: 1000 } as never)
}

async function stream(sim: Simulator, customers: readonly string[]): Promise<number> {
  const key = sim.platform.secretKey.test
  let token = ''
  let renewAt = 0
  let sent = 0
  const scheduler = sim.service.kernel.scheduler
  for (let r = 0; r < REQUESTS; r++) {
    if (sim.clock.now >= renewAt) {
      const res = await sim.fetch('https://api.stripe.test/v2/billing/meter_event_session', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}` },
      })
      token = ((await res.json()) as { authentication_token: string }).authentication_token
      renewAt = sim.clock.now + 10 * 60_000
    }
    const text = body(r, customers, sim.clock.now)
    for (let k = 0; k < (r % DUPLICATE_EVERY === 0 ? 2 : 1); k++) {
      const res = await sim.fetch('https://meter-events.stripe.test/v2/billing/meter_event_stream', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: text,
      })
      if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`)
      await res.arrayBuffer()
      sent += PER_REQUEST
    }
    await scheduler.advance(sim.clock.now + STEP)
  }
  return sent
}

async function main(): Promise<void> {
  // Billing: setup (products, prices, customers with a card, subscriptions) is part of what it adds.
  gc()
  const heapStart = heapMb()
  const t0 = performance.now()
  const billing = makeSim()
  const meter = billing.admin.createMeter({ eventName: 'api_call' }) as { id: string }
  const product = await form(billing, '/v1/products', { name: 'API calls' })
  const price = await form(billing, '/v1/prices', {
    product: String(product.id),
    currency: 'usd',
    unit_amount: '2',
    'recurring[interval]': 'month',
    'recurring[usage_type]': 'metered',
    'recurring[meter]': meter.id,
  })
  const customers: string[] = []
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const c = await form(billing, '/v1/customers', { email: `c${i}@example.com` })
    const pm = await form(billing, '/v1/payment_methods/pm_card_visa/attach', { customer: String(c.id) })
    await form(billing, `/v1/customers/${String(c.id)}`, { 'invoice_settings[default_payment_method]': String(pm.id) })
    await form(billing, '/v1/subscriptions', { customer: String(c.id), 'items[0][price]': String(price.id) })
    customers.push(String(c.id))
  }
  const setupS = (performance.now() - t0) / 1000
  const t1 = performance.now()
  const sentBilling = await stream(billing, customers)
  const ingestBillingS = (performance.now() - t1) / 1000
  const t2 = performance.now()
  await billing.service.kernel.scheduler.advance(MONTH_END + 3 * 86_400_000)
  const invoicingS = (performance.now() - t2) / 1000
  const billingS = (performance.now() - t0) / 1000
  const heapPeak = heapMb()
  const invoices = billing.service.engine.resource('invoice').list({ account: billing.platform.id, mode: 'test' }) as unknown as {
    status: string
    amount_paid: number
    lines: { data: { quantity: number; period: { start: number } }[] }
  }[]
  const periodEnd = invoices.filter((i) => i.lines.data.some((l) => l.period.start === START / 1000 && l.quantity > 0))
  const paid = periodEnd.filter((i) => i.status === 'paid').length
  const billedUnits = periodEnd.reduce((n, i) => n + i.lines.data.reduce((m, l) => m + l.quantity, 0), 0)
  const stats = billing.admin.meterStats()
  if (periodEnd.length !== SUBSCRIPTIONS)
    throw new Error(`expected ${SUBSCRIPTIONS} period-end invoices, got ${periodEnd.length}`)

  // The same events, stream ingestion alone (a meter, no customers or subscriptions), same process.
  gc()
  const t3 = performance.now()
  const alone = makeSim()
  alone.admin.createMeter({ eventName: 'api_call' })
  const sentAlone = await stream(alone, customers)
  await alone.service.kernel.scheduler.advance(MONTH_END + 3 * 86_400_000)
  const aloneS = (performance.now() - t3) / 1000
  const ratio = billingS / aloneS
  gc()
  const heapEnd = heapMb()

  const load = loadavg().map((l) => Math.round(l * 100) / 100)
  const round = (n: number) => Math.round(n * 100) / 100
  const figures = [
    {
      name: 'billing month: wall (setup + ingestion + invoicing)',
      value: round(billingS),
      unit: 's',
      target: '< 30 s',
      pass: billingS < 30,
    },
    { name: 'billing month: stream ingestion alone, same events', value: round(aloneS), unit: 's' },
    {
      name: 'billing month: billing / ingestion alone',
      value: round(ratio),
      unit: 'x',
      baseline: { name: 'stream ingestion alone', value: round(aloneS) },
      ratio: round(ratio),
    },
    { name: 'billing month: heap after the month (MB)', value: heapPeak, unit: 'MB', target: '< 1024 MB', pass: heapPeak < 1024 },
  ]
  const doc = {
    generated_at: new Date().toISOString(),
    quick: QUICK,
    machine: { cpus: cpus().length, loadavg: load },
    subscriptions: SUBSCRIPTIONS,
    events_sent: sentBilling,
    events_sent_alone: sentAlone,
    seconds: {
      setup: round(setupS),
      ingestion: round(ingestBillingS),
      invoicing: round(invoicingS),
      billing_total: round(billingS),
      alone: round(aloneS),
    },
    heap_mb: { start: heapStart, after_month: heapPeak, end: heapEnd },
    invoices: { period_end: periodEnd.length, paid, billed_units: billedUnits },
    meter_stats: stats,
    figures,
    notes: [
      `${SUBSCRIPTIONS} metered subscriptions, ${sentBilling.toLocaleString('en-US')} events sent (every ${DUPLICATE_EVERY}th batch twice, every ${LATE_EVERY}th stamped 6 h late); ${periodEnd.length} period-end invoices, ${paid} paid, ${billedUnits.toLocaleString('en-US')} units billed.`,
      `Load average at the end: ${load.join(', ')} on ${cpus().length} cores (shared machine).`,
    ],
  }
  mkdirSync('reports/bench', { recursive: true })
  writeFileSync('reports/bench/billing-month.json', `${JSON.stringify(doc, null, 2)}\n`)
  const md = [
    '# billing-month',
    '',
    ...doc.notes,
    '',
    '| figure | value | target | verdict |',
    '| --- | --- | --- | --- |',
    ...figures.map((f) => {
      const t = f as { target?: string; pass?: boolean }
      const verdict = t.pass === undefined ? '' : t.pass ? 'pass' : 'FAIL'
      return `| ${f.name} | ${f.value} ${f.unit} | ${t.target ?? ''} | ${verdict} |`
    }),
    '',
    `Seconds: setup ${doc.seconds.setup}, ingestion ${doc.seconds.ingestion}, invoicing ${doc.seconds.invoicing}; heap MB: ${JSON.stringify(doc.heap_mb)}.`,
    '',
  ]
  writeFileSync('reports/bench/billing-month.md', md.join('\n'))
  console.log(md.join('\n'))
  console.log(`ratio billing / ingestion alone: ${round(ratio)}x`)
}

await main()
