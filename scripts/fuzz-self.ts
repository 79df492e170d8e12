import { parseArgs } from 'node:util'
import { runHostile } from '../test/hostile/hostile-requests.js'

/**
 * Sends generated hostile requests to the simulator itself and prints what must stay 0.
 *
 * @example
 * // npm run fuzz:self -- --count 100000 --seed 1
 */
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    verbose: { type: 'boolean', default: false },
  },
})
const count = Number(values.count)
const seed = Number(values.seed)
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: fuzz-self --count <n> --seed <n> [--verbose]')
  process.exit(2)
}
let shown = 0
const figures = await runHostile({
  seed,
  count,
  progress: (f) => process.stderr.write(`\r${f.requests} requests, ${(f.ms / 1000).toFixed(1)} s`),
  onFailure: (what, request, detail) => {
    if (values.verbose || shown++ < 20) {
      console.error(`\n${what}: ${request.init.method ?? 'GET'} ${request.url.slice(0, 200)} ${detail.slice(0, 300)}`)
    }
  },
})
process.stderr.write('\n')
const lines: [string, number | string][] = [
  ['requests', figures.requests],
  ['hangs', figures.hangs],
  ['5xx', figures.serverErrors],
  ['throws (other than fetch TypeError)', figures.throws],
  ['fetch TypeErrors (allowed)', figures.fetchTypeErrors],
  ['state changes on 4xx', figures.stateChangesOn4xx],
  ['throws after a commit', figures.throwsAfterCommit],
  ['internal failures (traced or background)', figures.internalFailures],
  ['balance check failures', figures.balanceFailures],
  ['statuses', JSON.stringify(figures.statuses)],
  ['time', `${(figures.ms / 1000).toFixed(1)} s`],
]
for (const [name, value] of lines) console.log(`${name.padEnd(42)} ${value}`)
const bad =
  figures.hangs +
  figures.serverErrors +
  figures.throws +
  figures.stateChangesOn4xx +
  figures.throwsAfterCommit +
  figures.internalFailures +
  figures.balanceFailures
process.exit(bad === 0 ? 0 : 1)
