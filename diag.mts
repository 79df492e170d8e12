import fc from 'fast-check'
import { flowProgram, mirrorWorkload, runFlow, mirrorSubject, buggySubscriptionMirrors } from './src/harness/index.js'
const v = buggySubscriptionMirrors.find((x) => x.name === 'payload-on-failed-read')!
const progs = fc.sample(flowProgram(mirrorWorkload()), { numRuns: 60, seed: 2026 })
let has = 0, caught = 0
for (const [i, p] of progs.entries()) {
  const k = p.faults.find((f: any) => f.fault === 'server_error' && f.count === 2 && f.operation === undefined)
  const r = await runFlow(p, mirrorSubject(v.factory, {}, 'x'))
  const c = r.violations.some((x) => x.checker === 'mirror.converged')
  if (c) caught++
  if (!k && !c) continue
  has++
  console.log(i, c ? 'CAUGHT' : 'missed', 'faults', p.faults.map((f: any) => `${f.step}:${f.fault}${f.operation ? '@' + f.operation : ''}${f.count ? 'x' + f.count : ''}`).join(' '))
  console.log('   ', p.steps.map((s: any) => s.kind + (s.sub !== undefined ? '#' + s.sub : '') + (s.ms ? '+' + Math.round(s.ms / 3600000) + 'h' : '')).join(' '))
}
console.log('with episode', has, 'caught', caught)
