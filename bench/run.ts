/**
 * `npm run bench`: runs every `bench/*.bench.ts` (each in its own node process, so one bench's
 * heap and JIT state do not leak into the next; inside each, the figure and its baseline share one
 * process), then gathers their reports into `reports/bench/latest.json` and `latest.md`.
 *
 * `npm run bench:check` (`--check`): the same, then compares every ratio against
 * `bench/thresholds.json` and exits 1 on a regression beyond the noise allowance there.
 *
 * Flags: `--only a,b` (bench names), `--check`, `--check-only` (compare the existing latest.json
 * without running), `--update-thresholds` (write thresholds from this run's ratios, with margin),
 * `--quick` (shorter runs: a smoke test of the benches, not figures to compare).
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { type Figure, machine } from './lib/bench-report.js'
import { checkRatios, type Thresholds, thresholdsFrom } from './lib/check.js'
import { normalise } from './lib/normalise.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const REPORTS = join(ROOT, 'reports', 'bench')
const THRESHOLDS = join(ROOT, 'bench', 'thresholds.json')
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    check: { type: 'boolean' },
    'check-only': { type: 'boolean' },
    'update-thresholds': { type: 'boolean' },
    quick: { type: 'boolean' },
    timeout: { type: 'string' },
  },
})
// simulator-figures stores a million customers, each with its customer.created event (about 4 KB
// together), which is past node's default old-space limit of about 4 GB on this machine.
const HEAP_MB = 8192
const timeoutS = Number(values.timeout ?? process.env.BENCH_TIMEOUT_S ?? 900)

export interface BenchResult {
  name: string
  status: 'ok' | 'failed' | 'timeout'
  seconds: number
  figures: Figure[]
  notes: string[]
  error?: string
}

function runOne(name: string): Promise<BenchResult> {
  const started = Date.now()
  const file = join('bench', `${name}.bench.ts`)
  process.stdout.write(`\n=== ${name} (${file})\n`)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', `--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', file], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(values.quick ? { BENCH_QUICK: '1' } : {}) },
    })
    let err = ''
    child.stdout?.on('data', (d: Buffer) => process.stdout.write(d))
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
      process.stderr.write(d)
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5000).unref()
    }, timeoutS * 1000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      const seconds = Math.round((Date.now() - started) / 100) / 10
      const report = join(REPORTS, `${name}.json`)
      const fresh = existsSync(report) && statSync(report).mtimeMs >= started
      if (timedOut || code !== 0 || !fresh) {
        resolve({
          name,
          status: timedOut ? 'timeout' : 'failed',
          seconds,
          figures: [],
          notes: [],
          error: timedOut
            ? `stopped after ${timeoutS} s`
            : code !== 0
              ? `exit ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`
              : 'wrote no fresh report',
        })
        return
      }
      const { figures, notes } = normalise(name, JSON.parse(readFileSync(report, 'utf8')))
      resolve({ name, status: 'ok', seconds, figures, notes })
    })
  })
}

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3)
}

function writeLatest(results: BenchResult[]): void {
  const m = machine()
  const doc = { generated_at: new Date().toISOString(), machine: m, quick: Boolean(values.quick), benches: results }
  writeFileSync(join(REPORTS, 'latest.json'), `${JSON.stringify(doc, null, 2)}\n`)
  const md = [
    '# Benchmarks: latest run',
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, Node ${m.node}, ${m.platform}. Run at ${doc.generated_at}${doc.quick ? ' (quick mode: smoke figures, not for comparison)' : ''}.`,
    '',
    'Ratio = figure / baseline (for times marked lower-is-better, a ratio below the target is the goal). Each bench runs in its own process; each figure and its baseline in the same one. See docs/performance.md.',
    '',
  ]
  for (const r of results) {
    md.push(`## ${r.name}`, '', `\`bench/${r.name}.bench.ts\`, ${r.seconds} s, ${r.status}${r.error ? `: ${r.error}` : ''}.`, '')
    if (r.figures.length > 0) {
      md.push('| figure | value | baseline | ratio | target | verdict |', '| --- | --- | --- | --- | --- | --- |')
      for (const f of r.figures) {
        md.push(
          `| ${f.name} | ${fmt(f.value)} ${f.unit} | ${f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value)}` : ''} | ${
            f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`
          } | ${f.target ?? ''} | ${f.pass === undefined ? '' : f.pass ? 'pass' : '**miss**'} |`,
        )
      }
      md.push('')
    }
    for (const n of r.notes) md.push(`- ${n}`)
    if (r.notes.length > 0) md.push('')
  }
  const misses = results.flatMap((r) => r.figures.filter((f) => f.pass === false).map((f) => `${r.name}: ${f.name}`))
  md.push('## Targets missed in this run', '', ...(misses.length ? misses.map((x) => `- ${x}`) : ['none']), '')
  writeFileSync(join(REPORTS, 'latest.md'), md.join('\n'))
}

let results: BenchResult[]
if (values['check-only']) {
  results = (JSON.parse(readFileSync(join(REPORTS, 'latest.json'), 'utf8')) as { benches: BenchResult[] }).benches
} else {
  const all = readdirSync(join(ROOT, 'bench'))
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.slice(0, -'.bench.ts'.length))
    .sort()
  const only = values.only?.split(',').map((s) => s.trim())
  const names = only ? all.filter((n) => only.includes(n)) : all
  results = []
  for (const name of names) results.push(await runOne(name))
  if (only && existsSync(join(REPORTS, 'latest.json'))) {
    // A partial run keeps the other benches' last results in latest.*.
    const previous = (JSON.parse(readFileSync(join(REPORTS, 'latest.json'), 'utf8')) as { benches: BenchResult[] }).benches
    results = [...previous.filter((p) => !names.includes(p.name)), ...results].sort((a, b) => a.name.localeCompare(b.name))
  }
  writeLatest(results)
  process.stdout.write(`\nwrote reports/bench/latest.json and latest.md\n`)
}

if (values['update-thresholds']) {
  writeFileSync(THRESHOLDS, `${JSON.stringify(thresholdsFrom(results), null, 2)}\n`)
  process.stdout.write('wrote bench/thresholds.json\n')
}
let code = results.some((r) => r.status !== 'ok') ? 1 : 0
if (values.check || values['check-only']) {
  const thresholds = JSON.parse(readFileSync(THRESHOLDS, 'utf8')) as Thresholds
  const verdict = checkRatios(results, thresholds)
  for (const line of verdict.lines) process.stdout.write(`${line}\n`)
  if (verdict.regressions > 0) code = 1
  process.stdout.write(
    `\nbench:check: ${verdict.regressions} regression(s) beyond the noise, ${verdict.checked} ratios checked${code ? '' : ', ok'}\n`,
  )
}
process.exitCode = code
