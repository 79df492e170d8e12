// Measures how many runs the flow properties take to reach the (event type, object state on
// arrival, how it arrived, where the app stood) combinations their flows are known to produce
// (`knownFlowCombinations`), plain generation beside the steered campaign, and writes
// reports/bench/flow-coverage-<property>.md and .html. Usage: npx tsx scripts/flow-coverage.ts [runs] [property] [seeds, e.g. 1,2,3]
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { coverageTable, type FlowCampaignReport, knownFlowCombinations, runFlowCampaign } from '../src/harness/index.js'
import { coverageProperties } from './lib/coverage-properties.js'

const runs = Number(process.argv[2] ?? 500)
const only = process.argv[3] === 'all' ? undefined : process.argv[3]
const seeds = String(process.argv[4] ?? '1')
  .split(',')
  .map(Number)
const properties = coverageProperties.filter((p) => only === undefined || p.name === only)

/** The run by which `report` had reached `share` of `known`. */
function runsToReach(report: FlowCampaignReport, known: readonly string[], share: number): string {
  const firsts = known.map((k) => report.firstReached[k]).filter((n): n is number => n !== undefined)
  const need = Math.ceil(known.length * share)
  if (firsts.length < need) return 'not reached'
  return String(firsts.sort((a, b) => a - b)[need - 1])
}

const lines: string[] = [
  '# Flow coverage: plain generation beside the steered campaign',
  '',
  `${runs} runs per property, mode and seed (fast-check seeds ${seeds.join(', ')}), the reference clients. A combination is (event type, the provider's state of its object when the delivery arrived, how it arrived, where the app stood). "Known" is \`knownFlowCombinations\`: the union of long explorations (plain and steered campaigns of 2,000 runs over several seeds), what these flows are known to produce. "Rule events" are the known combinations of the types the property's rules read (the steering aims at those first).`,
  '',
  '| property | mode | seed | known reached | runs to reach 50% | 75% | 90% | 100% | rule events reached | new (outside the known set) | violations | seconds |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
]
const pages: string[] = []
for (const p of properties) {
  const known = knownFlowCombinations[p.name]
  const ruled = known.filter((k) => p.focus.some((f) => k.startsWith(f)))
  for (const seed of seeds)
  for (const steer of [false, true]) {
    const t0 = performance.now()
    const r = await runFlowCampaign(p.subject, { runs, seed, workload: p.workload, steer, known, focus: p.focus })
    const seconds = (performance.now() - t0) / 1000
    const reached = known.filter((k) => r.coverage[k] !== undefined).length
    const fresh = Object.keys(r.coverage).filter((k) => !known.includes(k)).length
    const rule = ruled.filter((k) => r.coverage[k] !== undefined).length
    lines.push(
      `| ${p.name} | ${steer ? 'steered' : 'plain'} | ${seed} | ${reached} of ${known.length} | ${runsToReach(r, known, 0.5)} | ${runsToReach(r, known, 0.75)} | ${runsToReach(r, known, 0.9)} | ${runsToReach(r, known, 1)} | ${rule} of ${ruled.length} | ${fresh} | ${r.violations} | ${seconds.toFixed(0)} |`,
    )
    console.log(lines[lines.length - 1])
    pages.push(`<h2>${p.name}: ${steer ? 'steered' : 'plain'}, seed ${seed}, ${runs} runs</h2>\n${coverageTable(r.coverage, known)}`)
  }
}
lines.push(
  '',
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (other work shares the machine). Regenerate with \`npx tsx scripts/flow-coverage.ts ${runs} [property] ${seeds.join(',')}\`; extend the known set with \`npx tsx scripts/flow-coverage-explore.ts\`.`,
)
mkdirSync('reports/bench', { recursive: true })
const suffix = only === undefined ? '' : `-${only}`
writeFileSync(`reports/bench/flow-coverage${suffix}.md`, `${lines.join('\n')}\n`)
writeFileSync(
  `reports/bench/flow-coverage${suffix}.html`,
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flow coverage</title><style>body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:3px 6px;text-align:left}td.unreached{background:#fafafa}ul#missing{columns:2;font-size:12px}</style></head><body><h1>Flow coverage</h1>${pages.join('\n')}</body></html>\n`,
)
