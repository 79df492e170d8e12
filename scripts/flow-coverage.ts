// Measures how many runs the flow properties take to reach every (event type, object state on
// arrival, how it arrived, where the app stood) combination, plain generation beside the steered
// campaign, and writes reports/bench/flow-coverage-<property>.md and .html. Usage: npx tsx scripts/flow-coverage.ts [runs]
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import {
  coverageTable,
  dunningSubject,
  dunningWorkload,
  type FlowCampaignReport,
  type FlowSubject,
  type FlowWorkload,
  fulfilmentPayments,
  fulfilmentSubject,
  fulfilmentWorkload,
  mirrorSubject,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
  runFlowCampaign,
} from '../src/harness/index.js'

const runs = Number(process.argv[2] ?? 500)
const only = process.argv[3]
const all: { name: string; subject: () => FlowSubject; workload: FlowWorkload; focus: readonly string[] }[] = [
  {
    name: 'checkSubscriptionMirror',
    subject: () => mirrorSubject(referenceSubscriptionMirror, {}, 'coverage'),
    workload: {},
    focus: ['customer.subscription.', 'invoice.paid', 'invoice.payment_failed'],
  },
  {
    name: 'checkDunning',
    subject: () => dunningSubject(referenceDunningClient, 'coverage'),
    workload: dunningWorkload(),
    focus: ['invoice.paid', 'invoice.payment_failed', 'invoice.marked_uncollectible'],
  },
  {
    name: 'checkFulfilment',
    subject: () => fulfilmentSubject(referenceFulfilmentClient, 'coverage'),
    workload: fulfilmentWorkload(fulfilmentPayments.length),
    focus: ['checkout.session.', 'payment_intent.succeeded'],
  },
]
const properties = all.filter((p) => only === undefined || p.name === only)

/** The run by which `report` had reached `share` of `all`. */
function runsToReach(report: FlowCampaignReport, all: ReadonlySet<string>, share: number): number | undefined {
  const firsts = [...all].map((k) => report.firstReached[k]).filter((n): n is number => n !== undefined)
  if (firsts.length < Math.ceil(all.size * share)) return undefined
  return firsts.sort((a, b) => a - b)[Math.ceil(all.size * share) - 1]
}

const lines: string[] = [
  '# Flow coverage: plain generation beside the steered campaign',
  '',
  `${runs} runs per property and mode, the reference clients, seed 1. A combination is (event type, the provider's state of its object when the delivery arrived, how it arrived, where the app stood). "Known" is the union of what either mode reached: the combinations these flows are known to produce. "Rule events" are the types the property's rules read (the steering's focus).`,
  '',
  '| property | mode | combinations (all types) | known | last new at run | rule events: combinations | known | runs to reach 90% | runs to reach all | violations | failure notice after paid (first run) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
]
const pages: string[] = []
for (const p of properties) {
  const t0 = performance.now()
  const plain = await runFlowCampaign(p.subject, { runs, workload: p.workload, steer: false })
  const steered = await runFlowCampaign(p.subject, { runs, workload: p.workload, focus: p.focus })
  const known = new Set([...Object.keys(plain.coverage), ...Object.keys(steered.coverage)])
  const ruled = new Set([...known].filter((k) => p.focus.some((f) => k.startsWith(f))))
  for (const [mode, r] of [
    ['plain', plain],
    ['steered', steered],
  ] as const) {
    const late = Object.keys(r.firstReached)
      .filter((k) => k.startsWith('invoice.payment_failed|paid|'))
      .map((k) => r.firstReached[k] as number)
    const lateAt = late.length === 0 ? 'never' : String(Math.min(...late))
    const reachedRuled = Object.keys(r.coverage).filter((k) => ruled.has(k)).length
    lines.push(
      `| ${p.name} | ${mode} | ${Object.keys(r.coverage).length} | ${known.size} | ${r.saturatedAt} | ${reachedRuled} | ${ruled.size} | ${runsToReach(r, ruled, 0.9) ?? 'not reached'} | ${runsToReach(r, ruled, 1) ?? 'not reached'} | ${r.violations} | ${p.name === 'checkDunning' ? lateAt : 'n/a'} |`,
    )
  }
  const seconds = (performance.now() - t0) / 1000
  console.log(
    `${p.name}: plain ${Object.keys(plain.coverage).length}, steered ${Object.keys(steered.coverage).length}, known ${known.size} (${seconds.toFixed(0)} s)`,
  )
  pages.push(`<h2>${p.name}: steered, ${runs} runs</h2>\n${coverageTable(steered.coverage)}`)
}
lines.push(
  '',
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores. Regenerate with \`npx tsx scripts/flow-coverage.ts ${runs} [property]\`.`,
)
mkdirSync('reports/bench', { recursive: true })
const suffix = only === undefined ? '' : `-${only}`
writeFileSync(`reports/bench/flow-coverage${suffix}.md`, `${lines.join('\n')}\n`)
writeFileSync(
  `reports/bench/flow-coverage${suffix}.html`,
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flow coverage</title><style>body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:3px 6px;text-align:left}td.unreached{background:#fafafa}</style></head><body><h1>Flow coverage</h1>${pages.join('\n')}</body></html>\n`,
)
console.log(lines.join('\n'))
