/**
 * The CLI as an installed package runs it: `node dist/cli/main.js` (what bin/service-sim.js runs
 * when there is no src/ beside it), with plain node and no loader. Three commands, each a fresh
 * process: `--help` (which must load only the help text: the target is under 0.3 s), `replay` of
 * the bundled default scenario without a report, and a bare `node -e ''` for what node itself
 * costs. Wall clock from spawn to exit and the process's own CPU time; medians.
 *
 * Run: npx tsx bench/cli-start.bench.ts (it runs `npm run build` first, so dist/ is never stale)
 */
import { fileURLToPath } from 'node:url'
import { type Figure, writeBenchReport } from './lib/bench-report.js'
import { buildDist, median, runTimed } from './lib/timed-child.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RUNS = process.env.BENCH_QUICK === '1' ? 3 : 15

interface Side {
  readonly name: string
  readonly args: readonly string[]
  readonly prints: RegExp
}

const sides: readonly Side[] = [
  { name: 'node', args: ['-e', ''], prints: /^$/ },
  { name: 'help', args: ['dist/cli/main.js', '--help'], prints: /^service-sim: / },
  { name: 'replay', args: ['dist/cli/main.js', 'replay', '--quiet', '--no-report'], prints: /all \d+ expectations hold/ },
]

const run = (args: readonly string[]) => runTimed(ROOT, args)

buildDist(ROOT)

for (const side of sides) await run(side.args)
const wall: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]))
const cpu: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]))
for (let r = 0; r < RUNS; r++) {
  const order = [...sides.slice(r % sides.length), ...sides.slice(0, r % sides.length)]
  for (const side of order) {
    const result = await run(side.args)
    if (!side.prints.test(result.out)) throw new Error(`${side.name} printed ${JSON.stringify(result.out.slice(0, 200))}`)
    wall[side.name]?.push(result.ms)
    cpu[side.name]?.push(result.cpu)
  }
}

const w = (name: string) => median(wall[name] as number[])
const c = (name: string) => median(cpu[name] as number[])
const figures: Figure[] = [
  { name: 'cli: bare node -e ""', value: w('node'), unit: 'ms' },
  {
    name: 'cli: service-sim --help',
    value: w('help'),
    unit: 'ms',
    baseline: { name: 'bare node', value: w('node') },
    ratio: w('help') / w('node'),
    better: 'lower',
    target: '< 300 ms',
    pass: w('help') < 300,
  },
  { name: 'cli: service-sim --help CPU', value: c('help'), unit: 'CPU ms', baseline: { name: 'bare node', value: c('node') } },
  { name: 'cli: service-sim replay (default scenario, no report)', value: w('replay'), unit: 'ms' },
  { name: 'cli: service-sim replay CPU', value: c('replay'), unit: 'CPU ms' },
]
const notes = [
  `${RUNS} rounds of one fresh process per command in rotating order, from the built dist/ with plain node (as an installed package runs); wall from spawn to exit and the process's own CPU time (user + system), medians.`,
  'Before the commands were imported on demand and the bin stopped registering tsx, an installed package took 1.7-2.8 s (median of runs, under load; 4.4 s reported by a user) and about 1.4 CPU s for --help, and replay of the default scenario about 2.6 s and 1.5 CPU s (with fast-check installed by hand: without it that replay failed).',
]
process.stdout.write(
  `cli: --help ${w('help').toFixed(0)} ms (CPU ${c('help').toFixed(0)} ms), replay ${w('replay').toFixed(0)} ms (CPU ${c('replay').toFixed(0)} ms), bare node ${w('node').toFixed(0)} ms\n`,
)
writeBenchReport('cli-start', figures, notes)
