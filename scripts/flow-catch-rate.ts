import { parseArgs } from 'node:util'
import fc from 'fast-check'
import {
  buggyDunningClients,
  buggyFulfilmentClients,
  buggySubscriptionMirrors,
  describeFlowProgram,
  dunningSubject,
  dunningWorkload,
  type FlowProgram,
  type FlowSubject,
  type FlowWorkload,
  flowProgram,
  fulfilmentPayments,
  fulfilmentSubject,
  fulfilmentWorkload,
  mirrorSubject,
  mirrorWorkload,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
  runFlow,
} from '../src/harness/index.js'

/**
 * How often a property's generated runs catch each bundled buggy variant: for each seed, the
 * programs a check with that seed draws (`--runs`, default 50) run one by one against the variant,
 * without stopping at the first failure or shrinking, and the runs that fail counted. Where
 * `flow-seed-sweep` says whether a seed catches a mistake, this says by what margin (a mistake
 * caught by 2 runs in 50 is one generator change away from escaping). `reference` runs the correct
 * client (its count must be 0) and gives CPU ms per run. `--show` prints the programs.
 *
 * @example
 * // npx tsx scripts/flow-catch-rate.ts --property mirror --seeds 1-20 --variant created-ties,reference
 */
const { values } = parseArgs({
  options: {
    property: { type: 'string', default: 'mirror' },
    seeds: { type: 'string', default: '1-20' },
    runs: { type: 'string', default: '50' },
    variant: { type: 'string', default: '' },
    show: { type: 'boolean', default: false },
  },
})

interface Entry {
  readonly name: string
  readonly factory: unknown
  readonly options?: Readonly<Record<string, unknown>>
}
interface Property {
  readonly workload: FlowWorkload
  readonly reference: unknown
  readonly variants: readonly Entry[]
  readonly subject: (factory: never, options: Record<string, unknown>) => FlowSubject
}
const properties: Record<string, Property> = {
  mirror: {
    workload: mirrorWorkload(),
    reference: referenceSubscriptionMirror,
    variants: buggySubscriptionMirrors,
    subject: (f, o) => mirrorSubject(f, o, 'catch-rate'),
  },
  fulfilment: {
    workload: fulfilmentWorkload(fulfilmentPayments.length),
    reference: referenceFulfilmentClient,
    variants: buggyFulfilmentClients,
    subject: (f, o) => fulfilmentSubject(f, 'catch-rate', o),
  },
  dunning: {
    workload: dunningWorkload(),
    reference: referenceDunningClient,
    variants: buggyDunningClients,
    subject: (f) => dunningSubject(f, 'catch-rate'),
  },
}
const found = properties[values.property]
if (found === undefined) {
  console.error(`usage: flow-catch-rate --property ${Object.keys(properties).join('|')} [--seeds 1-20|5,10] [--runs N] [--variant a,b|reference] [--show]`)
  process.exit(2)
}
const property: Property = found
const seeds = values.seeds.split(',').flatMap((part) => {
  const [a, b] = part.split('-').map(Number) as [number, number | undefined]
  return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i)
})
const chosen: Entry[] = [
  ...property.variants.filter((v) => values.variant === '' || values.variant.split(',').includes(v.name)),
  ...(values.variant.split(',').includes('reference') ? [{ name: 'reference', factory: property.reference }] : []),
]
/** The programs a check with this seed draws, in its order (what fast-check hands the property). */
async function programsOf(seed: number): Promise<FlowProgram[]> {
  const out: FlowProgram[] = []
  const collect = async (p: FlowProgram) => {
    out.push(p)
    return true
  }
  await fc.check(fc.asyncProperty(flowProgram(property.workload), collect), { seed, numRuns: Number(values.runs) })
  return out
}
const caught = new Map<string, number[]>(chosen.map((v) => [v.name, []]))
let cpu = 0
let referenceRuns = 0
for (const seed of seeds) {
  const programs = await programsOf(seed)
  const line: string[] = []
  for (const v of chosen) {
    const used = process.cpuUsage()
    let n = 0
    for (const p of programs) {
      const report = await runFlow(p, property.subject(v.factory as never, { ...v.options }))
      if (report.violations.length > 0) n++
    }
    const spent = process.cpuUsage(used)
    if (v.name === 'reference') {
      cpu += (spent.user + spent.system) / 1000
      referenceRuns += programs.length
    }
    caught.get(v.name)?.push(n)
    line.push(`${v.name} ${n}`)
  }
  console.log(`seed ${seed}: ${line.join(', ')}`)
  if (values.show) for (const [i, p] of programs.entries()) console.log(`--- run ${i}${p.everyEvent ? ' (every event)' : ''}\n${describeFlowProgram(p)}\n${JSON.stringify(p.faults)}`)
}
console.log(`\n| variant | runs that catch it, per seed (of ${values.runs}) | fewest | mean |\n|---|---|---|---|`)
for (const [name, counts] of caught) {
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length
  console.log(`| ${name} | ${counts.join(' ')} | ${Math.min(...counts)} | ${mean.toFixed(1)} |`)
}
if (referenceRuns > 0) console.log(`\nreference: ${(cpu / referenceRuns).toFixed(1)} CPU ms per run over ${referenceRuns} runs`)
