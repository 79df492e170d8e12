import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { stringify } from 'yaml'
import { canonicalJson } from '#kernel/index.js'
import type { FuzzSettings } from './fuzz-options.js'
import type { FuzzOutcome } from './fuzz-worker.js'

/** A fuzz campaign's report (one shard); `merge` combines several. */
export interface FuzzReport {
  readonly format: 1
  readonly kind: 'fuzz'
  readonly scenario: string
  readonly shards: string[]
  readonly runs: number
  /** `replay` is the saved file; `command` reproduces the failure (with `--client` when one was given). */
  readonly failures: { seed: number; violated: string[]; replay: string; command: string }[]
  readonly seeds: { first: number; last: number }[]
}

type FuzzFailure = FuzzReport['failures'][number]

/** Where a seed's failure is saved. */
function replayFile(s: FuzzSettings, seed: number): string {
  return join(s.failuresDir, `${s.scenario.name}-seed-${seed}.yaml`)
}

/**
 * Saves every failing seed as a replayable scenario file (its fault decisions as an explicit
 * schedule) and removes the saved files of earlier failures that pass now.
 *
 * @example
 * const failures = await saveFailures(settings, outcomes, previous)
 */
export async function saveFailures(
  s: FuzzSettings,
  outcomes: readonly FuzzOutcome[],
  previous: readonly number[],
): Promise<FuzzFailure[]> {
  mkdirSync(s.failuresDir, { recursive: true })
  const failures: FuzzFailure[] = []
  for (const o of outcomes) {
    const replay = replayFile(s, o.seed)
    if (o.ok) continue
    const raw = readFileSync(s.file, 'utf8')
    const source = s.file.endsWith('.json') ? JSON.parse(raw) : (await import('yaml')).parse(raw)
    // Faults are data: the decisions of the failing run become an explicit schedule.
    const saved = {
      ...source,
      seed: o.seed,
      ...(s.headerPrefix === undefined ? {} : { header_prefix: s.headerPrefix }),
      faults: { schedule: o.faults.map((f) => ({ step: f.step, fault: f.fault, ...f.params })) },
    }
    writeFileSync(
      replay,
      `# Failing seed ${o.seed} of ${basename(s.file)}; replay: service-sim replay ${replay}${s.clientArg}\n${stringify(saved)}`,
    )
    failures.push({ seed: o.seed, violated: o.violated, replay, command: `service-sim replay ${replay}${s.clientArg}` })
  }
  // Fixed seeds (they pass now) leave the failures directory.
  for (const seed of previous) {
    const o = outcomes.find((x) => x.seed === seed)
    if (o?.ok) rmSync(replayFile(s, seed), { force: true })
  }
  return failures
}

/**
 * Writes the shard's report (canonical JSON) and prints the campaign's summary; answers the report's path.
 *
 * @example
 * writeFuzzReport(settings, outcomes, failures) // 'reports/fuzz/default/shard-1-of-1.json'
 */
export function writeFuzzReport(s: FuzzSettings, outcomes: readonly FuzzOutcome[], failures: FuzzFailure[]): string {
  const seeds = outcomes.map((o) => o.seed)
  const report: FuzzReport = {
    format: 1,
    kind: 'fuzz',
    scenario: s.scenario.name,
    shards: [`${s.shard.index}/${s.shard.count}`],
    runs: outcomes.length,
    failures,
    seeds: seeds.length ? [{ first: seeds[0] as number, last: seeds[seeds.length - 1] as number }] : [],
  }
  mkdirSync(s.reportDir, { recursive: true })
  const out = join(s.reportDir, `shard-${s.shard.index}-of-${s.shard.count}.json`)
  writeFileSync(out, `${canonicalJson(report)}\n`)
  process.stdout.write(
    `fuzz ${s.scenario.name}: ${outcomes.length} runs, ${failures.length} failing seed(s)${failures.length ? `: ${failures.map((f) => f.seed).join(', ')}` : ''}; report ${out}\n`,
  )
  for (const f of failures) process.stdout.write(`  seed ${f.seed}: ${f.violated[0] ?? ''}\n    replay: ${f.command}\n`)
  return out
}
