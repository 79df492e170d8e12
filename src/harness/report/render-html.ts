import { formatDuration } from '#kernel/index.js'
import { MissingOptionalPackageError } from '../optional-package.js'
import { timelineSvg } from './chart.js'
import { deliveryRows } from './delivery-table.js'
import type { Report } from './report.js'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The rows of the page's tables and its witness blocks, as HTML. */
interface Parts {
  readonly svg: string
  readonly verdicts: string
  readonly witnesses: string
  readonly steps: string
  readonly outcomes: string
  readonly perReceiver: string
  readonly faults: string
  readonly stepThrough: string
}

function verdictRows(report: Report): string {
  return report.verdicts
    .map(
      (v) =>
        `<tr class="${v.ok ? 'held' : 'violated'}"><td>${v.ok ? '✔ held' : '✘ violated'}</td><td>${esc(v.name)}</td><td>${esc(v.message)}</td></tr>`,
    )
    .join('\n')
}

function witnessBlocks(report: Report): string {
  return report.verdicts
    .filter((v) => !v.ok)
    .map(
      (v) =>
        `<h3>${esc(v.name)}</h3><p>${esc(v.message)}</p>${v.witness === undefined ? '' : `<pre>${esc(JSON.stringify(v.witness, null, 2))}</pre>`}`,
    )
    .join('\n')
}

function stepRows(report: Report, rel: (at: number) => string): string {
  return report.steps
    .map((s) => {
      const reqs = report.requests.filter((r) => r.step === s.n)
      const outcomes = reqs.map((r) => r.outcome)
      return `<tr><td>${s.n}</td><td>${rel(s.at)}</td><td>${esc(s.label)}</td><td>${esc(outcomes.slice(0, 6).join(', '))}${outcomes.length > 6 ? ` … (${outcomes.length})` : ''}</td><td>${s.ok ? '' : esc(s.note ?? 'failed')}</td></tr>`
    })
    .join('\n')
}

function receiverRows(report: Report): string {
  return deliveryRows(report)
    .map(
      (r) =>
        `<tr><td>${esc(r.receiver)}</td><td>${r.attempts}</td><td>${r.first}</td><td>${r.retries}</td><td>${r.acknowledged}</td><td>${r.refused}</td><td>${r.unreachable}</td></tr>`,
    )
    .join('\n')
}

function faultRows(report: Report, rel: (at: number) => string): string {
  return report.faults
    .map(
      (f) =>
        `<tr><td>${f.step}</td><td>${rel(f.at)}</td><td>${f.fault}</td><td>${f.source}</td><td>${f.applied ? 'yes' : 'no'}</td><td>${esc(f.note)}</td></tr>`,
    )
    .join('\n')
}

/** The page around its parts. */
function page(report: Report, { svg, verdicts, witnesses, steps, outcomes, perReceiver, faults, stepThrough }: Parts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(report.scenario)} (seed ${esc(report.seed)}): ${report.ok ? 'pass' : 'FAIL'}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}
h1{font-size:22px} h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #eee;padding:4px 8px;text-align:left;vertical-align:top}
tr.violated td{background:#fdecea;color:#8a1c13} tr.held td:first-child{color:#2e7d32}
.badge{display:inline-block;padding:2px 10px;border-radius:10px;color:#fff;background:${report.ok ? '#2e7d32' : '#c62828'}}
pre{background:#f6f8fa;padding:10px;overflow:auto;font-size:12px} figure{margin:0;overflow-x:auto}
code{background:#f6f8fa;padding:1px 4px}
</style>
</head>
<body>
<h1>${esc(report.scenario)} <span class="badge" id="result">${report.ok ? 'all expectations hold' : `${report.summary.verdicts.violated} violated`}</span></h1>
<p>${esc(report.description)}</p>
<p>Seed <code>${esc(report.seed)}</code>, virtual time ${esc(report.start)} → ${esc(report.end)}, ${report.summary.steps} steps, ${report.summary.requests} requests, ${report.summary.deliveries} delivery attempts, ${report.summary.faults} fault decisions. Trace <code>${report.trace.hash.slice(0, 16)}</code>.</p>
<h2>Timeline</h2>
<figure id="timeline">${svg}</figure>
${outcomes ? `<h2>Request outcomes</h2>\n<table id="outcomes"><thead><tr><th>Outcome</th><th>Count</th></tr></thead><tbody>${outcomes}</tbody></table>` : ''}
${perReceiver ? `<h2>Deliveries per receiver</h2>\n<table id="deliveries"><thead><tr><th>Receiver</th><th>Attempts</th><th>First tries</th><th>Retries</th><th>Acknowledged</th><th>Refused</th><th>No connection</th></tr></thead><tbody>${perReceiver}</tbody></table>` : ''}
<h2>Verdicts</h2>
<table id="verdicts"><thead><tr><th>Result</th><th>Expectation</th><th>Detail</th></tr></thead><tbody>
${verdicts}
</tbody></table>
${witnesses ? `<h2>Witnesses</h2>\n<div id="witnesses">${witnesses}</div>` : ''}
${stepThrough}
${faults ? `<h2>Fault decisions</h2>\n<table id="faults"><thead><tr><th>Step</th><th>At</th><th>Fault</th><th>Source</th><th>Applied</th><th>Note</th></tr></thead><tbody>${faults}</tbody></table>` : ''}
<h2>Steps</h2>
<table id="steps"><thead><tr><th>#</th><th>At</th><th>Step</th><th>Outcomes</th><th></th></tr></thead><tbody>
${steps}
</tbody></table>
</body>
</html>
`
}

/** The timeline chart, or where vega is not installed a line saying how to get it: the rest of the page stands without it. */
async function chartOrNote(report: Report): Promise<string> {
  try {
    return await timelineSvg(report)
  } catch (error) {
    if (!(error instanceof MissingOptionalPackageError)) throw error
    return `<p class="note">${esc(error.message)}.</p>`
  }
}

/** Where a counterexample's report says to open it step by step: the command that serves its step-through. */
function stepThroughOf(counterexample: string | undefined): string {
  if (counterexample === undefined) return ''
  const word = (text: string) => (/^[\w./:@-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`)
  const quoted = word(counterexample)
  const name = counterexample.split(/[\\/]/).pop() ?? counterexample
  const dir = word(counterexample.slice(0, counterexample.length - name.length) || '.')
  return `<h2>Step through it</h2>
<p id="step-through">Open this counterexample in the dashboard and step through it to the violation (each step, the requests, the deliveries with the app's answers, the faults, and the entries that witness the violation): <code>${esc(`npx service-sim open ${quoted}`)}</code>. Under <code>${esc(`service-sim serve --counterexamples ${dir}`)}</code> it is the dashboard's page <code>${esc(`/__dashboard#counterexample/${encodeURIComponent(name)}`)}</code>.</p>`
}

/**
 * What else `renderHtml` shows.
 *
 * @example
 * await renderHtml(report, { counterexample: '.service-sim/counterexamples/no-dedup-7.json' })
 */
export interface HtmlReportOptions {
  /** The counterexample file the run replayed: the page gives the command that steps through it. */
  readonly counterexample?: string | undefined
}

/**
 * `report.html`: one self-contained page (inline CSS and SVG, no scripts, no network) with the
 * timeline chart, the verdicts, the witnesses of violations and the step timeline; for a
 * counterexample, the command that opens it step by step in the dashboard.
 *
 * @example
 * writeFileSync('report.html', await renderHtml(report))
 */
export async function renderHtml(report: Report, options: HtmlReportOptions = {}): Promise<string> {
  const start = Date.parse(report.start)
  const rel = (at: number) => `+${formatDuration(at - start)}`
  return page(report, {
    svg: await chartOrNote(report),
    verdicts: verdictRows(report),
    witnesses: witnessBlocks(report),
    steps: stepRows(report, rel),
    outcomes: Object.entries(report.summary.outcomes)
      .map(([k, n]) => `<tr><td>${esc(k)}</td><td>${n}</td></tr>`)
      .join('\n'),
    perReceiver: receiverRows(report),
    faults: faultRows(report, rel),
    stepThrough: stepThroughOf(options.counterexample),
  })
}
