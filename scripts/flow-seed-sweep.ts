import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import {
  buggyDunningClients,
  buggyFulfilmentClients,
  buggySubscriptionMirrors,
  checkDunning,
  checkFulfilment,
  checkSubscriptionMirror,
  type FlowCheckResult,
} from '../src/harness/index.js'

/**
 * Runs each billing flow property against every bundled buggy variant over fast-check seeds 1..N
 * (with the policy options the variant promises) and prints a table: per variant, on how many
 * seeds it was caught, the rules its first violation named, and the longest counterexample. How
 * reliably a property's generator finds each mistake, not only on its default seed. `--out`
 * writes the table as Markdown too; `--variant a,b` sweeps only those.
 *
 * @example
 * // npx tsx scripts/flow-seed-sweep.ts --property all --seeds 20 --runs 50 --out reports/bench/flow-variants.md
 */
const { values } = parseArgs({
  options: {
    property: { type: 'string', default: 'all' },
    seeds: { type: 'string', default: '20' },
    runs: { type: 'string', default: '50' },
    variant: { type: 'string', default: '' },
    out: { type: 'string', default: '' },
  },
})

type Check = (factory: never, options: Record<string, unknown>) => Promise<FlowCheckResult>
interface Entry {
  readonly name: string
  readonly factory: unknown
  readonly options?: Readonly<Record<string, unknown>>
  readonly breaks?: string
}
const properties: Record<string, { check: Check; variants: readonly Entry[] }> = {
  mirror: { check: checkSubscriptionMirror as Check, variants: buggySubscriptionMirrors },
  fulfilment: { check: checkFulfilment as Check, variants: buggyFulfilmentClients },
  dunning: { check: checkDunning as Check, variants: buggyDunningClients },
}
const names = values.property === 'all' ? Object.keys(properties) : [values.property]
if (names.some((n) => properties[n] === undefined)) {
  console.error(`usage: flow-seed-sweep --property all|${Object.keys(properties).join('|')} [--seeds N] [--runs N] [--variant name] [--out file]`)
  process.exit(2)
}
const seeds = Number(values.seeds)
const numRuns = Number(values.runs)
const started = performance.now()
const rows: string[] = []
let escaped = 0
for (const property of names) {
  const chosen = properties[property] as (typeof properties)[string]
  for (const variant of chosen.variants) {
    if (values.variant !== '' && !values.variant.split(',').includes(variant.name)) continue
    const t = performance.now()
    const missed: number[] = []
    const rules = new Set<string>()
    let longest = 0
    for (let seed = 1; seed <= seeds; seed++) {
      const result = await chosen.check(variant.factory as never, { ...variant.options, numRuns, seed })
      if (result.ok) missed.push(seed)
      else {
        longest = Math.max(longest, result.counterexample?.steps.length ?? 0)
        for (const v of result.violations ?? []) rules.add(v.checker)
      }
    }
    escaped += missed.length
    const secs = ((performance.now() - t) / 1000).toFixed(1)
    const row = `| ${property} | ${variant.name} | ${seeds - missed.length}/${seeds} | ${[...rules].sort().join(', ')} | ${longest} | ${secs}s | ${missed.join(',')} |`
    rows.push(row)
    console.log(row)
    write(`(partial: ${rows.length} variant(s) so far)`)
  }
}
function write(footer: string): void {
  if (values.out === '') return
  const head = '| property | variant | caught | rules named | longest | time | missed seeds |\n|---|---|---|---|---|---|---|'
  const command = `npx tsx scripts/flow-seed-sweep.ts --seeds ${seeds} --runs ${numRuns}${values.variant === '' ? '' : ` --variant ${values.variant}`}`
  writeFileSync(values.out, `# Bundled buggy variants x seeds\n\n\`${command}\`\n\n${head}\n${rows.join('\n')}\n\n${footer}\n`)
}
const total = `${escaped} escape(s) over seeds 1..${seeds} at ${numRuns} runs, ${((performance.now() - started) / 1000).toFixed(1)}s`
console.log(total)
write(total)
