import * as vega from 'vega'
import type { Report } from './report.js'

interface Point {
  t: number
  lane: string
  category: string
  detail: string
  dy: number
}

/**
 * The chart rows of a report: one point per request (by outcome, each 429 reason apart), session
 * expiry, delivery attempt (per receiver, first tries and retries apart) and fault decision.
 *
 * @example
 * chartPoints(report).length
 */
export function chartPoints(report: Report): Point[] {
  const points: Point[] = []
  const lanes = new Map<string, number>()
  const push = (t: number, lane: string, category: string, detail: string) => {
    const i = lanes.get(lane) ?? 0
    lanes.set(lane, i + 1)
    points.push({ t, lane, category, detail, dy: ((i % 7) - 3) * 3 })
  }
  for (const r of report.requests) push(r.at, 'requests', r.outcome, `#${r.step} ${r.method} ${r.path} -> ${r.outcome}`)
  for (const m of report.markers) {
    if (m.kind === 'session expiry') push(m.at, 'sessions', 'session expiry', m.detail)
  }
  for (const d of report.deliveries) {
    const ok = d.status >= 200 && d.status < 300
    const category = `${d.attempt > 1 ? 'retry' : 'delivery'} ${ok ? 'acknowledged' : d.status === 0 ? 'no connection' : `refused ${d.status}`}`
    push(d.at, `deliveries: ${d.receiver}`, category, `${d.type ?? ''} ${d.eventId ?? ''} attempt ${d.attempt}`)
  }
  for (const f of report.faults)
    push(f.at, 'faults', `fault ${f.fault}${f.applied ? '' : ' (nothing to act on)'}`, `step ${f.step}: ${f.note}`)
  return points
}

const PALETTE = [
  '#2e7d32',
  '#c62828',
  '#1565c0',
  '#ef6c00',
  '#6a1b9a',
  '#00838f',
  '#ad1457',
  '#558b2f',
  '#4527a0',
  '#f9a825',
  '#37474f',
  '#8d6e63',
]

/**
 * Draws the timeline over virtual time to a static SVG string with vega (no browser, no canvas).
 *
 * @example
 * const svg = await timelineSvg(report)
 */
export async function timelineSvg(report: Report): Promise<string> {
  const points = chartPoints(report)
  const lanes = [
    'requests',
    'sessions',
    ...[...new Set(points.filter((p) => p.lane.startsWith('deliveries')).map((p) => p.lane))].sort(),
    'faults',
  ]
  const categories = [...new Set(points.map((p) => p.category))].sort()
  const start = Date.parse(report.start)
  const end = Math.max(Date.parse(report.end), start + 1000)
  const color = categories.map((c, i) =>
    c === '200' || c.endsWith('acknowledged')
      ? '#2e7d32'
      : c.startsWith('fault')
        ? '#6a1b9a'
        : c === 'session expiry'
          ? '#f9a825'
          : (PALETTE[(i % (PALETTE.length - 1)) + 1] as string),
  )
  const spec = {
    $schema: 'https://vega.github.io/schema/vega/v6.json',
    description: `Timeline of ${report.scenario} (seed ${report.seed}) over virtual time`,
    width: 760,
    height: lanes.length * 46,
    padding: 8,
    background: 'white',
    data: [{ name: 'points', values: points }],
    scales: [
      { name: 'x', type: 'utc', domain: [start, end], range: 'width', nice: false },
      { name: 'y', type: 'band', domain: lanes, range: 'height', padding: 0.15 },
      {
        name: 'color',
        type: 'ordinal',
        domain: categories.length ? categories : ['none'],
        range: color.length ? color : ['#999'],
      },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'virtual time (UTC)', labelOverlap: true, grid: true, gridOpacity: 0.15 },
      { orient: 'left', scale: 'y', title: null, labelLimit: 180 },
    ],
    legends: [{ fill: 'color', title: 'outcome', orient: 'right', symbolType: 'circle', labelLimit: 260 }],
    marks: [
      {
        type: 'symbol',
        from: { data: 'points' },
        encode: {
          enter: {
            x: { scale: 'x', field: 't' },
            y: { scale: 'y', field: 'lane', band: 0.5, offset: { field: 'dy' } },
            fill: { scale: 'color', field: 'category' },
            size: { value: 46 },
            opacity: { value: 0.85 },
            tooltip: { signal: "datum.category + ': ' + datum.detail" },
          },
        },
      },
    ],
  }
  const view = new vega.View(vega.parse(spec as unknown as vega.Spec), { renderer: 'none' })
  const svg = await view.toSVG()
  view.finalize()
  return svg
}
