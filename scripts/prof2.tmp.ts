import fc from 'fast-check'
import * as h from '../src/harness/index.js'
const progs = fc.sample(h.flowProgram({}), { numRuns: 60, seed: 2026 })
for (const p of progs) await h.runFlow(p as never, h.mirrorSubject(h.referenceSubscriptionMirror, {}, 'x'))
const c = process.cpuUsage()
for (const p of progs) await h.runFlow(p as never, h.mirrorSubject(h.referenceSubscriptionMirror, {}, 'x'))
const u = process.cpuUsage(c)
console.log(((u.user + u.system) / 1000 / progs.length).toFixed(1), 'ms/run')
