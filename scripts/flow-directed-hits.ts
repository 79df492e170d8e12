// How often a program built for a combination (the steered campaign's first way of aiming at a
// missing one) reaches it: per known combination of a property, a few built programs run with the
// reference client, target beside what the run produced of the target's type. Usage:
// npx tsx scripts/flow-directed-hits.ts [property] [samples per combination] [key filter, a regexp]
import fc from 'fast-check'
import { drawnKinds } from '../src/harness/flow-campaign.js'
import { coverageTarget } from '../src/harness/flows/coverage-steering.js'
import { directedProgram } from '../src/harness/flows/flow-directed.js'
import { fulfilmentDirectedProgram } from '../src/harness/flows/fulfilment-directed.js'
import { knownFlowCombinations, runFlow } from '../src/harness/index.js'
import { coverageProperties } from './lib/coverage-properties.js'

const name = process.argv[2] ?? 'checkFulfilment'
const samples = Number(process.argv[3] ?? 3)
const only = new RegExp(process.argv[4] ?? '.')
const property = coverageProperties.find((p) => p.name === name)
if (property === undefined) throw new Error(`no property ${name}`)
const drawn = drawnKinds(property.workload)
let hits = 0
let built = 0
const unbuilt: string[] = []
for (const key of knownFlowCombinations[property.name].filter((k) => only.test(k))) {
  const target = coverageTarget(key)
  const arbitrary = directedProgram(target, drawn) ?? fulfilmentDirectedProgram(target, drawn)
  if (arbitrary === undefined) {
    unbuilt.push(key)
    continue
  }
  let hit = 0
  const instead = new Set<string>()
  for (const program of fc.sample(arbitrary, { seed: 7, numRuns: samples })) {
    const report = await runFlow(program, property.subject())
    if (report.coverage.includes(key)) hit++
    else for (const k of report.coverage) if (k.startsWith(`${target.type}|`)) instead.add(k)
  }
  hits += hit
  built += samples
  if (hit < samples) console.log(`${hit}/${samples} ${key}: produced instead ${[...instead].join(' ') || 'nothing of its type'}`)
}
console.log(`${name}: built programs reached their target in ${hits} of ${built} runs`)
console.log(`no built program (a graft aims at these): ${unbuilt.length === 0 ? 'none' : unbuilt.join(' ')}`)
