import { readFileSync, writeFileSync } from 'node:fs'
import { canonicalJson } from '#kernel/index.js'
import { parseCommandArgs } from './command-flags.js'
import type { FuzzReport } from './fuzz-report.js'
import { HELP } from './help.js'
import { UsageError } from './usage-error.js'

/**
 * Merges fuzz shard reports of one scenario: runs added, failures and seed ranges combined.
 *
 * @example
 * mergeFuzzReports([a, b]).runs // a.runs + b.runs
 */
export function mergeFuzzReports(reports: readonly FuzzReport[]): FuzzReport {
  const first = reports[0]
  if (first === undefined) throw new UsageError('nothing to merge')
  const shards = new Set<string>()
  for (const r of reports) {
    // The same shard twice would count its runs twice.
    for (const shard of r.shards) {
      if (shards.has(shard)) throw new UsageError(`shard ${shard} of '${r.scenario}' given more than once`)
      shards.add(shard)
    }
    if (r.scenario !== first.scenario)
      throw new UsageError(`cannot merge reports of different scenarios: '${first.scenario}' and '${r.scenario}'`)
  }
  return {
    format: 1,
    kind: 'fuzz',
    scenario: first.scenario,
    shards: reports.flatMap((r) => r.shards).sort(),
    runs: reports.reduce((n, r) => n + r.runs, 0),
    failures: reports.flatMap((r) => r.failures).sort((a, b) => a.seed - b.seed),
    seeds: reports.flatMap((r) => r.seeds).sort((a, b) => a.first - b.first),
  }
}

/**
 * `service-sim merge <report.json...> [--out file]`. Exit 1 when the merged campaign has failures.
 *
 * @example
 * await mergeCommand(['a.json', 'b.json', '--out', 'merged.json'])
 */
export async function mergeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('merge', args)
  if (values.help) {
    process.stdout.write(HELP.merge ?? '')
    return 0
  }
  if (positionals.length === 0) throw new UsageError('expected at least one fuzz report file')
  const reports = positionals.map((file) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new UsageError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not JSON'}`)
    }
    const r = parsed as Partial<FuzzReport>
    if (r.kind !== 'fuzz' || !Array.isArray(r.failures) || typeof r.runs !== 'number')
      throw new UsageError(`${file}: expected a fuzz report (kind "fuzz")`)
    return r as FuzzReport
  })
  const merged = mergeFuzzReports(reports)
  const text = `${canonicalJson(merged)}\n`
  if (values.out) writeFileSync(values.out, text)
  else process.stdout.write(text)
  process.stderr.write(`merged ${reports.length} report(s): ${merged.runs} runs, ${merged.failures.length} failing seed(s)\n`)
  return merged.failures.length === 0 ? 0 : 1
}
