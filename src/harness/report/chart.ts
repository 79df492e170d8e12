import type * as Vega from 'vega'
import { importOptional } from '../optional-package.js'
import type { Report } from './report.js'

/** One symbol of the timeline chart. */
export interface Point {
  readonly t: number
  /** Group of rows: `requests`, `sessions`, `billing`, `deliveries: <receiver>`, `faults`. */
  readonly group: string
  readonly category: string
  /** The chart row: one per group and outcome, labelled with its count. */
  readonly row: string
  readonly detail: string
  /** The outcome with its count over the whole run, as the legend shows it. */
  readonly legend: string
  /** Vertical offset inside the row, so points at one instant do not hide each other. */
  readonly dy: number
}

const GROUP_ORDER = (group: string) =>
  group === 'requests' ? 0 : group === 'sessions' ? 1 : group === 'billing' ? 2 : group.startsWith('deliveries') ? 3 : 4

/** Billing rows in the order of the loop: usage, then an invoice's life, then payments. */
const BILLING_ORDER = [
  'usage processed',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  'payment succeeded',
  'payment pending',
  'payment failed',
]

/**
 * The chart rows of a report: one point per request (by outcome, each 429 reason apart), session
 * expiry, billing record (usage processed, invoice event, payment attempt), delivery attempt (per receiver, first tries and retries apart) and fault decision. Each
 * outcome of each group is its own row, labelled with its count, so outcomes at one instant stay
 * apart.
 *
 * @example
 * chartPoints(report).length
 */
export function chartPoints(report: Report): Point[] {
  const raw: { t: number; group: string; category: string; detail: string }[] = []
  for (const r of report.requests)
    raw.push({ t: r.at, group: 'requests', category: r.outcome, detail: `#${r.step} ${r.method} ${r.path} -> ${r.outcome}` })
  for (const m of report.markers) {
    if (m.kind === 'session expiry') raw.push({ t: m.at, group: 'sessions', category: 'session expiry', detail: m.detail })
  }
  for (const b of report.billing ?? []) raw.push({ t: b.at, group: 'billing', category: b.kind, detail: b.detail })
  for (const d of report.deliveries) {
    const ok = d.status >= 200 && d.status < 300
    const category = `${d.attempt > 1 ? 'retry' : 'delivery'} ${ok ? 'acknowledged' : d.status === 0 ? 'no connection' : `refused ${d.status}`}`
    raw.push({
      t: d.at,
      group: `deliveries: ${d.receiver}`,
      category,
      detail: `${d.type ?? ''} ${d.eventId ?? ''} attempt ${d.attempt}`.trim(),
    })
  }
  for (const f of report.faults)
    raw.push({
      t: f.at,
      group: 'faults',
      category: `fault ${f.fault}${f.applied ? '' : ' (nothing to act on)'}`,
      detail: `step ${f.step}: ${f.note}`,
    })
  const counts = new Map<string, number>()
  const total = new Map<string, number>()
  const key = (p: { group: string; category: string }) => `${p.group}\u0000${p.category}`
  for (const p of raw) {
    counts.set(key(p), (counts.get(key(p)) ?? 0) + 1)
    total.set(p.category, (total.get(p.category) ?? 0) + 1)
  }
  // Points sharing a row and an instant fan out vertically (up to 7 offsets), the rest overlap.
  const atInstant = new Map<string, number>()
  return raw.map((p) => {
    const k = `${key(p)}\u0000${p.t}`
    const i = atInstant.get(k) ?? 0
    atInstant.set(k, i + 1)
    const receiver = p.group.slice('deliveries: '.length)
    // Destination ids (a harness replay's receivers) are long: their tail is enough to tell rows apart.
    const name = receiver.length > 14 ? `…${receiver.slice(-8)}` : receiver
    const short = p.group.startsWith('deliveries: ') ? `${name} · ` : ''
    return {
      ...p,
      row: `${short}${p.category} (${counts.get(key(p))})`,
      legend: `${p.category} (${total.get(p.category)})`,
      dy: i === 0 ? 0 : (i % 2 === 1 ? -1 : 1) * Math.ceil((i % 7) / 2) * 2.5,
    }
  })
}

/** Distinct hues (Tableau 10 and a few more, greens left out: green means acknowledged), in outcome order. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#17becf',
  '#7f7f7f',
  '#1f3a93',
  '#8c564b',
  '#d62728',
]

/** Fixed colours where a meaning is shared across runs; everything else takes the next palette hue. */
function colourOf(category: string): string | undefined {
  if (category === '200' || category === 'delivery acknowledged') return '#2e7d32'
  if (category === 'retry acknowledged') return '#00bcd4'
  if (category === 'session expiry') return '#f9a825'
  // Billing: none of these is in the palette, so no other outcome shares their hue.
  if (category === 'usage processed') return '#5e35b1'
  if (category === 'invoice.created') return '#90caf9'
  if (category === 'invoice.finalized') return '#3949ab'
  if (category === 'invoice.paid') return '#7cb342'
  if (category === 'payment succeeded') return '#00695c'
  if (category === 'invoice.payment_failed') return '#c62828'
  if (category === 'payment failed') return '#6d0000'
  return undefined
}

function shapeOf(category: string): string {
  if (category.startsWith('fault')) return 'triangle-up'
  if (category.startsWith('delivery') || category.startsWith('retry')) return 'square'
  if (category === 'session expiry') return 'cross'
  if (category.startsWith('invoice.')) return 'diamond'
  if (category.startsWith('payment ')) return 'triangle-down'
  return 'circle'
}

/**
 * The legend's label limit in pixels: 320, or more when the longest label needs it (never cut).
 *
 * @example
 * legendLabelLimit(['200 (4)']) // 320
 */
export function legendLabelLimit(legends: readonly string[]): number {
  const longest = legends.reduce((m, l) => Math.max(m, l.length), 0)
  return Math.max(320, Math.ceil(longest * 7.5) + 16)
}

/** The chart's rows, grouped (requests, deliveries, sessions, billing...) and ordered within a group. */
function rowsOf(points: readonly Point[]): string[] {
  return [...new Map(points.map((p) => [p.row, p])).values()]
    .sort(
      (a, b) =>
        GROUP_ORDER(a.group) - GROUP_ORDER(b.group) ||
        a.group.localeCompare(b.group) ||
        BILLING_ORDER.indexOf(a.category) - BILLING_ORDER.indexOf(b.category) ||
        a.row.localeCompare(b.row),
    )
    .map((p) => p.row)
}

/** The Vega spec of the timeline: one symbol per point, on a row, at its virtual time. */
function timelineSpec(report: Report, points: Point[]): object {
  const rows = rowsOf(points)
  const byLegend = new Map(points.map((p) => [p.legend, p.category]))
  const legends = [...byLegend.keys()].sort()
  // Long outcomes (a 4xx code with its reason, a delivery fault label) are shown whole: the label
  // limit grows with the longest one (about 7 px a character) and the columns shrink to fit.
  const labelLimit = legendLabelLimit(legends)
  // Two columns at most: three ran past the page width with the billing rows (checked in Chromium).
  const columns = Math.max(1, Math.min(2, Math.floor(1_200 / (labelLimit + 40))))
  let next = 0
  const colours = legends.map((l) => colourOf(byLegend.get(l) as string) ?? (PALETTE[next++ % PALETTE.length] as string))
  const shapes = legends.map((l) => shapeOf(byLegend.get(l) as string))
  const start = Date.parse(report.start)
  const end = Math.max(Date.parse(report.end), start + 1000)
  const spec = {
    $schema: 'https://vega.github.io/schema/vega/v6.json',
    description: `Timeline of ${report.scenario} (seed ${report.seed}) over virtual time`,
    width: 560,
    height: Math.max(1, rows.length) * 24,
    padding: 8,
    background: 'white',
    data: [{ name: 'points', values: points }],
    scales: [
      { name: 'x', type: 'utc', domain: [start, end], range: 'width', nice: false },
      { name: 'y', type: 'band', domain: rows.length ? rows : ['(nothing happened)'], range: 'height', padding: 0.1 },
      { name: 'color', type: 'ordinal', domain: legends.length ? legends : ['none'], range: colours.length ? colours : ['#999'] },
      { name: 'shape', type: 'ordinal', domain: legends.length ? legends : ['none'], range: shapes.length ? shapes : ['circle'] },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'virtual time (UTC)', labelOverlap: true, grid: true, gridOpacity: 0.15 },
      { orient: 'left', scale: 'y', title: null, labelLimit: 400, grid: true, gridOpacity: 0.08 },
    ],
    legends: [
      {
        fill: 'color',
        shape: 'shape',
        title: 'outcome (count)',
        // Below the plot, in columns: at the right it pushed the figure past the page width.
        orient: 'bottom',
        direction: 'horizontal',
        columns,
        labelLimit,
      },
    ],
    marks: [
      {
        type: 'symbol',
        from: { data: 'points' },
        encode: {
          enter: {
            x: { scale: 'x', field: 't' },
            y: { scale: 'y', field: 'row', band: 0.5, offset: { field: 'dy' } },
            fill: { scale: 'color', field: 'legend' },
            shape: { scale: 'shape', field: 'legend' },
            stroke: { value: 'white' },
            strokeWidth: { value: 0.5 },
            size: { value: 60 },
            opacity: { value: 0.9 },
            tooltip: { signal: "datum.category + ': ' + datum.detail" },
          },
        },
      },
    ],
  }
  return spec
}

/**
 * Draws the timeline over virtual time to a static SVG string with vega (no browser, no canvas):
 * one row per outcome (with its count), a distinct hue per outcome and triangles for faults.
 * vega is an optional peer, loaded here only: without it this rejects with a
 * `MissingOptionalPackageError` that names the install line.
 *
 * @example
 * const svg = await timelineSvg(report)
 */
export async function timelineSvg(report: Report): Promise<string> {
  const vega: typeof Vega = await importOptional('vega', () => import('vega'), 'drawing the timeline chart of report.html')
  const spec = timelineSpec(report, chartPoints(report))
  const view = new vega.View(vega.parse(spec as unknown as Vega.Spec), { renderer: 'none' })
  const svg = await view.toSVG()
  view.finalize()
  return svg
}
