import fc from 'fast-check'
import { flowProgram, mirrorWorkload } from './src/harness/index.js'
const progs = fc.sample(flowProgram(mirrorWorkload()), { numRuns: 60, seed: 2026 })
for (const i of [30, 36]) console.log(i, JSON.stringify(progs[i]!.steps.slice(0, 10)))
