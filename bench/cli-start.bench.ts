/**
 * The CLI as an installed package runs it: `node dist/cli/main.js` (what bin/service-sim.js runs
 * when there is no src/ beside it), with plain node and no loader. Each command a fresh process:
 * `--help` (which must load only the help text: the target is under 0.3 s), `replay` of the
 * bundled default scenario without a report, `trigger customer.created` against a running serve
 * (target under 0.3 s: one HTTP call), and a bare `node -e ''` for what node itself costs. The
 * trigger is also run from the sources through tsx, beside the baseline revision's sources the
 * same way (the baseline tree has no build script). Wall clock from spawn to exit and the
 * process's own CPU time; medians.
 *
 * Run: npx tsx bench/cli-start.bench.ts (it runs `npm run build` first, so dist/ is never stale)
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { baselineTree } from './lib/baseline-tree.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'
import { buildDist, median, runTimed } from './lib/timed-child.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RUNS = process.env.BENCH_QUICK === '1' ? 3 : 15

interface Side {
  readonly name: string
  readonly args: readonly string[]
  readonly prints: RegExp
}

const BASELINE_REV = '1314b38'
const run = (args: readonly string[]) => runTimed(ROOT, args)

buildDist(ROOT)

/** A serve from dist with no token and no limits (every trigger lands in the same virtual second), and its URL. */
async function startServe(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['dist/cli/main.js', 'serve', '--port', '0', '--clock', 'manual', '--admin-token', 'none', '--no-limits'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let out = ''
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /127\.0\.0\.1:(\d+)[\s\S]*Press Ctrl-C/.exec(out)
      if (m?.[1]) resolve(m[1])
    })
    child.on('exit', () => reject(new Error(out)))
  })
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGINT') }
}

const served = await startServe()
const base = baselineTree(BASELINE_REV, ROOT)
const trigger = ['trigger', 'customer.created', '--url', served.url]
const triggered = /Trigger succeeded: customer\.created/
const sides: readonly Side[] = [
  { name: 'node', args: ['-e', ''], prints: /^$/ },
  { name: 'help', args: ['dist/cli/main.js', '--help'], prints: /^service-sim: / },
  { name: 'replay', args: ['dist/cli/main.js', 'replay', '--quiet', '--no-report'], prints: /all \d+ expectations hold/ },
  { name: 'trigger', args: ['dist/cli/main.js', ...trigger], prints: triggered },
  { name: 'trigger-tsx', args: ['--import', 'tsx', 'src/cli/main.ts', ...trigger], prints: triggered },
  { name: 'trigger-tsx-base', args: ['--import', 'tsx', join(base, 'src/cli/main.ts'), ...trigger], prints: triggered },
]

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
  {
    name: 'cli: service-sim trigger customer.created (against a running serve)',
    value: w('trigger'),
    unit: 'ms',
    baseline: { name: 'bare node', value: w('node') },
    ratio: w('trigger') / w('node'),
    better: 'lower',
    target: '< 300 ms',
    pass: w('trigger') < 300,
  },
  { name: 'cli: service-sim trigger CPU', value: c('trigger'), unit: 'CPU ms' },
  {
    name: 'cli: trigger from the sources (tsx)',
    value: w('trigger-tsx'),
    unit: 'ms',
    baseline: { name: `trigger from the sources at ${BASELINE_REV} (tsx)`, value: w('trigger-tsx-base') },
    ratio: w('trigger-tsx') / w('trigger-tsx-base'),
    better: 'lower',
  },
]
const notes = [
  `The trigger rows call one serve (from dist, --clock manual --no-limits --admin-token none) started by the bench. Before, trigger loaded the whole simulator for its list of recipes and called serve with fetch, whose first use loads its HTTP client and whose kept-alive connection held the process open after the answer: 1.3-2.4 s wall for a 0.06 s HTTP call; it now loads the recipes only for --list and posts through node:http with the connection closed.`,
  `${RUNS} rounds of one fresh process per command in rotating order, from the built dist/ with plain node (as an installed package runs); wall from spawn to exit and the process's own CPU time (user + system), medians.`,
  'Before the commands were imported on demand and the bin stopped registering tsx, an installed package took 1.7-2.8 s (median of runs, under load; 4.4 s reported by a user) and about 1.4 CPU s for --help, and replay of the default scenario about 2.6 s and 1.5 CPU s (with fast-check installed by hand: without it that replay failed).',
]
served.stop()
process.stdout.write(
  `cli: trigger ${w('trigger').toFixed(0)} ms (CPU ${c('trigger').toFixed(0)} ms); from sources ${w('trigger-tsx').toFixed(0)} ms vs ${w('trigger-tsx-base').toFixed(0)} ms at ${BASELINE_REV}\n`,
)
process.stdout.write(
  `cli: --help ${w('help').toFixed(0)} ms (CPU ${c('help').toFixed(0)} ms), replay ${w('replay').toFixed(0)} ms (CPU ${c('replay').toFixed(0)} ms), bare node ${w('node').toFixed(0)} ms\n`,
)
writeBenchReport('cli-start', figures, notes)
