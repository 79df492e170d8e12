/**
 * The dashboard's lists at scale, in Chromium: a simulator with 50,000 API requests (10,000 of
 * them creating a customer, so 10,000 events), its dashboard served by `openDashboard`, and the
 * page opened in headless Chromium (the automation library the browser tests use). Figures: the
 * time from navigation to the first rows drawn (target under 300 ms) for the Requests and the
 * Events page, and while scrolling the Requests list from top to bottom by script, one step per
 * frame, the 95th percentile frame interval and the share of frames over 50 ms (smooth: a p95
 * near 16.7 ms). The same figures for a small simulator (500 requests) run in the same process
 * as the baseline, so the ratio says what the size costs.
 *
 * Run: npx tsx bench/dashboard-lists.bench.ts   (needs /usr/bin/chromium)
 */
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { chromium, type Page } from 'playwright-core'
import { openDashboard } from '../src/cli/dashboard/open-dashboard.js'
import { createSimulator } from '../src/simulator/create-simulator.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'

const CHROMIUM = '/usr/bin/chromium'
const QUICK = process.env.BENCH_QUICK === '1'
const RUNS = QUICK ? 2 : 5

/** A simulator that answered `requests` API calls, one in five creating a customer (an event each). */
async function simulatorWith(requests: number) {
  const sim = createSimulator({ seed: 49, headerPrefix: 'Stripe', limits: false })
  const auth = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
  for (let i = 0; i < requests; i++) {
    if (i % 5 === 0)
      await sim.fetch('https://api.service.test/v1/customers', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `email=c${i}%40example.com`,
      })
    else await sim.fetch('https://api.service.test/v1/balance', { headers: auth })
  }
  return sim
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

/** Milliseconds from navigation to `selector` drawn, the median of `RUNS` fresh loads. */
async function loadTime(page: Page, url: string, selector: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    // A fresh document each time: a change of the fragment alone would not reload the page.
    await page.goto('about:blank')
    const t0 = performance.now()
    await page.goto(url)
    await page.waitForSelector(selector)
    times.push(performance.now() - t0)
  }
  return median(times)
}

/**
 * Scrolls the Requests list to its end by script, one step a frame; frame intervals in ms. Given
 * as text: the bench's own transform would wrap a function with helpers the page lacks.
 */
const SCROLL = `new Promise((done) => {
  const box = document.querySelector('.scroller')
  const frames = []
  let last = performance.now()
  const steps = 240
  const stride = (box.scrollHeight - box.clientHeight) / steps
  let n = 0
  const step = (now) => {
    frames.push(now - last)
    last = now
    box.scrollTop = ++n * stride
    if (n < steps) requestAnimationFrame(step)
    else done(frames.slice(1))
  }
  requestAnimationFrame(step)
})`

const scrollFrames = (page: Page): Promise<number[]> => page.evaluate(SCROLL) as Promise<number[]>

async function measure(requests: number) {
  const sim = await simulatorWith(requests)
  const { url, close } = await openDashboard(sim)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(url)
    const base = url.replace(/\?token=.*$/, '')
    const requestsLoad = await loadTime(page, `${base}#requests`, 'tr.row')
    const frames = await scrollFrames(page)
    const sorted = [...frames].sort((a, b) => a - b)
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0
    const long = frames.filter((f) => f > 50).length / Math.max(1, frames.length)
    const eventsLoad = await loadTime(page, `${base}#events`, 'article.event')
    return { requestsLoad, p95, long, eventsLoad, events: sim.admin.events().length }
  } finally {
    await browser.close()
    await close()
  }
}

if (!existsSync(CHROMIUM)) {
  console.log(`dashboard-lists: skipped, no Chromium at ${CHROMIUM}`)
  process.exit(0)
}
const small = await measure(500)
const large = await measure(QUICK ? 5_000 : 50_000)
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100
const figures: Figure[] = [
  {
    name: `dashboard: Requests page load, ${QUICK ? '5,000' : '50,000'} requests`,
    value: Math.round(large.requestsLoad),
    unit: 'ms',
    baseline: { name: '500 requests', value: Math.round(small.requestsLoad) },
    ratio: ratio(large.requestsLoad, small.requestsLoad),
    better: 'lower',
    target: '< 300 ms',
    pass: large.requestsLoad < 300,
  },
  {
    name: `dashboard: Events page load, ${large.events.toLocaleString('en')} events`,
    value: Math.round(large.eventsLoad),
    unit: 'ms',
    baseline: { name: `${small.events} events`, value: Math.round(small.eventsLoad) },
    ratio: ratio(large.eventsLoad, small.eventsLoad),
    better: 'lower',
    target: '< 300 ms',
    pass: large.eventsLoad < 300,
  },
  {
    name: 'dashboard: Requests list scroll, p95 frame interval',
    value: Math.round(large.p95 * 10) / 10,
    unit: 'ms',
    baseline: { name: '500 requests', value: Math.round(small.p95 * 10) / 10 },
    ratio: ratio(large.p95, small.p95),
    better: 'lower',
    target: '< 50 ms',
    pass: large.p95 < 50,
  },
  {
    name: 'dashboard: Requests list scroll, frames over 50 ms',
    value: Math.round(large.long * 1000) / 10,
    unit: '%',
    baseline: { name: '500 requests', value: Math.round(small.long * 1000) / 10 },
  },
]
writeBenchReport('dashboard-lists', figures, [
  'Headless Chromium (Debian), 1280x800, --disable-gpu; the page served by openDashboard from the sources; load = navigation to the first row drawn, median of fresh loads; scroll = the whole Requests list by script in 240 frames.',
  'The Requests page reads the whole trace at load (every request with its bodies), and the Events page every event and delivery: their load grows with the simulation, which is what the load figures show; the lists draw only what is in view (Requests: a window of rows; Events: 100 at a time).',
  `Load average at the end of the run: ${loadavg()[0]?.toFixed(1)} on this machine (shared with other work).`,
])
console.log(figures.map((f) => `${f.name}: ${f.value} ${f.unit} (baseline ${f.baseline?.value ?? '-'})`).join('\n'))
