import { parseArgs } from 'node:util'
import { checkDunning } from '../src/harness/index.js'
import { standingDunning } from '../test/harness/fixtures/outside-batch8-apps.js'

/**
 * Runs `checkDunning` at its default runs over fast-check seeds against the dunning apps the
 * timing stories are for (the endpoint down through a renewal's earlier retries, events of one
 * invoice sharing a second) and their control, and prints per seed whether each was caught, the
 * rule its first violation named and the shrunk length, then a total per app.
 *
 * @example
 * // npx tsx scripts/dunning-timing-sweep.ts --seeds 1-20 --apps next-attempt,created,control
 */
const { values } = parseArgs({
  options: { seeds: { type: 'string', default: '1-20' }, apps: { type: 'string', default: 'next-attempt,created,control' } },
})
const apps = {
  'next-attempt': standingDunning({ givenUp: 'written-off', notice: 'with-next-attempt' }),
  created: standingDunning({ givenUp: 'written-off', dedupe: 'created' }),
  control: standingDunning({ givenUp: 'written-off' }),
} as const
const [from, to] = values.seeds.split('-').map(Number) as [number, number | undefined]
for (const name of values.apps.split(',') as (keyof typeof apps)[]) {
  if (apps[name] === undefined) throw new Error(`dunning-timing-sweep: unknown app '${name}' (${Object.keys(apps).join(', ')})`)
  let caught = 0
  let longest = 0
  for (let seed = from; seed <= (to ?? from); seed++) {
    const r = await checkDunning(apps[name], { seed })
    if (!r.ok) {
      caught++
      longest = Math.max(longest, r.counterexample?.steps.length ?? 0)
    }
    console.log(`${name} seed ${seed}: ${r.ok ? 'pass' : `caught (${r.violations?.[0]?.checker}, ${r.counterexample?.steps.length} steps)`}`)
  }
  console.log(`${name}: caught on ${caught} of ${(to ?? from) - from + 1} seeds, longest counterexample ${longest} steps`)
}
