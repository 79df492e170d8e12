// Explores which (event type, object state on arrival, how it arrived, where the app stood)
// combinations the flow properties can produce: long campaigns, plain and steered, over several
// seeds, their union with the stored set written to src/harness/flows/known-combinations.ts (the
// set never shrinks: a combination once produced stays known). Usage:
//   npx tsx scripts/flow-coverage-explore.ts [runs] [seeds, e.g. 1,2,3] [property] [--merge file.json ...] [--open | --wide]
// A merge file holds { "<property>": ["type|state|fault|deploy", ...] } from an earlier exploration.
// --open: steered campaigns only, aiming at every way of arriving not ruled impossible for each
// (type, state) reached, not only at the known combinations (a campaign that has reached all the
// known ones otherwise goes back to plain generation): what finds the combinations the set lacks.
// --wide: steered campaigns only, aiming at every way of arriving not ruled impossible for each
// (type, state) of the stored set, whether or not the campaign itself meets that pair (a rare pair
// met once by an earlier exploration gets its other ways aimed at too), and at the attacker's
// forgery about an object in each state of the set.
import { readFileSync, writeFileSync } from 'node:fs'
import {
  type FlowCoverageProperty,
  impossibleCombination,
  knownFlowCombinations,
  runFlowCampaign,
} from '../src/harness/index.js'
import { eventObjectKind } from '../src/harness/flows/event-object.js'
import { forgedType } from '../src/harness/flows/flow-forgery.js'
import { coverageProperties } from './lib/coverage-properties.js'

const args = process.argv.slice(2)
const merges = args.flatMap((a, i) => (args[i - 1] === '--merge' ? [a] : []))
const wide = args.includes('--wide')
const open = wide || args.includes('--open')
const [runs = 2000, seedList = '1,2,3', only] = args.filter(
  (a, i) => a !== '--merge' && a !== '--open' && a !== '--wide' && args[i - 1] !== '--merge',
)
const FAULTS = ['in_order', 'out_of_order', 'duplicate', 'retry', 'replayed', 'forged']
const DEPLOYS = ['none', 'redeployed', 'in_roll']
/**
 * Every way of arriving, not ruled impossible, for each (type, state) of `keys`; and the attacker's
 * forgery about an object of that type's kind in that state (its type follows from the kind and
 * the state, so no pair of the set may name it yet).
 */
function widened(keys: ReadonlySet<string>): string[] {
  const pairs = new Set([...keys].map((k) => k.split('|').slice(0, 2).join('|')))
  const forged = [...pairs].map((p) => {
    const [type = '', state = ''] = p.split('|')
    return `${forgedType(eventObjectKind(type), state)}|${state}`
  })
  return [...new Set([...pairs, ...forged])].flatMap((p) =>
    FAULTS.flatMap((f) => DEPLOYS.map((d) => `${p}|${f}|${d}`)).filter((k) => impossibleCombination(k) === undefined),
  )
}
const seeds = String(seedList).split(',').map(Number)
const found = new Map<FlowCoverageProperty, Set<string>>()
for (const p of coverageProperties) found.set(p.name, new Set(knownFlowCombinations[p.name]))
for (const file of merges) {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<FlowCoverageProperty, string[]>>
  for (const [name, keys] of Object.entries(data)) for (const k of keys ?? []) found.get(name as FlowCoverageProperty)?.add(k)
}
for (const p of coverageProperties.filter((x) => only === undefined || x.name === only)) {
  if (Number(runs) === 0) break
  for (const seed of seeds)
    for (const steer of open ? [true] : [false, true]) {
      const stored = found.get(p.name) ?? new Set<string>()
      const known = wide ? widened(stored) : open ? undefined : [...stored]
      const r = await runFlowCampaign(p.subject, { runs: Number(runs), seed, workload: p.workload, steer, ...(known === undefined ? {} : { known }) })
      for (const k of Object.keys(r.coverage)) found.get(p.name)?.add(k)
      console.log(`${p.name} seed ${seed} ${steer ? 'steered' : 'plain'}: ${Object.keys(r.coverage).length}, known now ${found.get(p.name)?.size}`)
    }
}

const DEPLOY_LETTER: Readonly<Record<string, string>> = { none: 'n', redeployed: 'r', in_roll: 'i' }
/** One property's rows: `type|state` to `fault:letters` words. */
function rows(keys: ReadonlySet<string>): string {
  const byPair = new Map<string, Map<string, string>>()
  for (const k of [...keys].sort()) {
    const [type, state, fault = '', deploy = ''] = k.split('|')
    const pair = `${type}|${state}`
    const faults = byPair.get(pair) ?? new Map<string, string>()
    faults.set(fault, [...((faults.get(fault) ?? '') + (DEPLOY_LETTER[deploy] ?? '?'))].sort((a, b) => 'nri'.indexOf(a) - 'nri'.indexOf(b)).join(''))
    byPair.set(pair, faults)
  }
  return [...byPair]
    .map(([pair, faults]) => `    '${pair}': '${[...faults].map(([f, d]) => `${f}:${d}`).join(' ')}',`)
    .join('\n')
}
const body = coverageProperties.map((p) => `  ${p.name}: {\n${rows(found.get(p.name) ?? new Set())}\n  },`).join('\n')
const source = readFileSync('src/harness/flows/known-combinations.ts', 'utf8')
const start = source.indexOf('const ROWS')
const end = source.indexOf('\n}\n', start)
writeFileSync(
  'src/harness/flows/known-combinations.ts',
  `${source.slice(0, start)}const ROWS: Readonly<Record<FlowCoverageProperty, Readonly<Record<string, string>>>> = {\n${body}${source.slice(end)}`,
)
for (const p of coverageProperties) console.log(`${p.name}: ${found.get(p.name)?.size} known`)
