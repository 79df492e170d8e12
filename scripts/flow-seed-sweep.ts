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
 * Runs each billing flow property against every bundled buggy variant over a range of fast-check
 * seeds and prints, per variant, on how many seeds it was caught and the longest counterexample:
 * how reliably a property's generator finds each mistake, not only on its default seed.
 *
 * @example
 * // npx tsx scripts/flow-seed-sweep.ts --property dunning --seeds 10 --runs 100
 */
const { values } = parseArgs({
  options: {
    property: { type: 'string', default: 'dunning' },
    seeds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '100' },
    variant: { type: 'string', default: '' },
  },
})

type Check = (factory: never, options: { numRuns: number; seed: number }) => Promise<FlowCheckResult>
const properties: Record<string, { check: Check; variants: readonly { name: string; factory: unknown }[] }> = {
  dunning: { check: checkDunning as Check, variants: buggyDunningClients },
  mirror: { check: checkSubscriptionMirror as Check, variants: buggySubscriptionMirrors },
  fulfilment: { check: checkFulfilment as Check, variants: buggyFulfilmentClients },
}
const chosen = properties[values.property]
if (chosen === undefined) {
  console.error(`usage: flow-seed-sweep --property ${Object.keys(properties).join('|')} [--seeds N] [--runs N] [--variant name]`)
  process.exit(2)
}
const seeds = Number(values.seeds)
const numRuns = Number(values.runs)
const started = performance.now()
let escaped = 0
for (const variant of chosen.variants) {
  if (values.variant !== '' && variant.name !== values.variant) continue
  const t = performance.now()
  const missed: number[] = []
  let longest = 0
  for (let seed = 1; seed <= seeds; seed++) {
    const result = await chosen.check(variant.factory as never, { numRuns, seed })
    if (result.ok) missed.push(seed)
    else longest = Math.max(longest, result.counterexample?.steps.length ?? 0)
  }
  escaped += missed.length
  const secs = ((performance.now() - t) / 1000).toFixed(1)
  console.log(
    `${variant.name.padEnd(28)} caught ${seeds - missed.length}/${seeds}  longest ${longest} steps  ${secs}s${missed.length > 0 ? `  missed seeds ${missed.join(',')}` : ''}`,
  )
}
console.log(`${values.property}: ${escaped} escape(s), ${((performance.now() - started) / 1000).toFixed(1)}s`)
