import fc from 'fast-check'
import type { FaultKind, FaultsInput } from '#faults/index.js'
import { program } from './fast-check/arbitraries.js'
import { refuseArgument } from './refuse-argument.js'
import type { Step } from './run/program.js'
import { type RunOptions, runProgram } from './run/run-program.js'
import { simulatorChoiceOf } from './run/simulator-choice.js'
import { validateRunOptions } from './validate-input.js'

/** Settings of a fault campaign. */
export interface CampaignOptions extends Omit<RunOptions, 'faults'> {
  /** Fault rates of every run (e.g. `{ preset: 'realistic' }` or `{ swarm: true }`). */
  readonly faults?: Omit<FaultsInput, 'schedule'>
  /** Kinds expected to fire; default: every kind with a rate in the first run's policy. */
  readonly expect?: readonly FaultKind[]
  readonly runs?: number
  readonly seed?: number
  readonly step: fc.Arbitrary<Step>
  readonly maxSteps?: number
}

/** What a campaign saw. */
export interface CampaignReport {
  readonly runs: number
  /** Fired count per fault kind over all runs. */
  readonly fired: Readonly<Partial<Record<FaultKind, number>>>
  /** Fired count per label (`rate_limit:global-rate`, ...). */
  readonly labels: Readonly<Record<string, number>>
  readonly configured: readonly FaultKind[]
  /** Configured kinds that never fired. */
  readonly missing: readonly FaultKind[]
  readonly violations: number
  readonly ok: boolean
}

/** `delivery.fault` kinds written by the delivery knobs, as fault kinds. */
const KNOB_KINDS: Readonly<Record<string, FaultKind>> = { duplicate: 'duplicate_delivery', reorder: 'reorder_delivery' }

/**
 * Runs many generated programs under one fault policy and reports which fault kinds actually
 * fired; `ok` is false when a configured (or expected) kind never did, so a campaign cannot pass
 * while silently testing nothing.
 *
 * @example
 * const report = await runCampaign({ reporter, step: usageStep(), faults: { preset: 'realistic' }, runs: 50 })
 * if (!report.ok) throw new Error(`never fired: ${report.missing.join(', ')}`)
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  refuseArgument('runCampaign', 'options', options, 'object')
  // fast-check would sample forever for runs: Infinity, and fail inside for NaN.
  if (options.runs !== undefined) refuseArgument('runCampaign', "option 'runs'", options.runs, 'count')
  if (options.seed !== undefined) refuseArgument('runCampaign', "option 'seed'", options.seed, 'integer')
  const runs = options.runs ?? 50
  const programs = fc.sample(program({ step: options.step, maxSteps: options.maxSteps ?? 30, maxFaults: 0 }), {
    numRuns: runs,
    seed: options.seed ?? 1,
  })
  const fired: Partial<Record<FaultKind, number>> = {}
  const labels: Record<string, number> = {}
  let configured: FaultKind[] | undefined
  let violations = 0
  const runOptions: RunOptions = {
    ...(options.reporter === undefined ? {} : { reporter: options.reporter }),
    ...(options.webhook === undefined ? {} : { webhook: options.webhook }),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.reportBudgetMs === undefined ? {} : { reportBudgetMs: options.reportBudgetMs }),
    ...(options.drainMs === undefined ? {} : { drainMs: options.drainMs }),
    ...(options.fork === undefined ? {} : { fork: options.fork }),
    ...simulatorChoiceOf(options),
  }
  // Refused as the campaign's own options, not as those of the runner it hands them to.
  validateRunOptions('runCampaign', runOptions)
  for (const p of programs) {
    const report = await runProgram(p, runOptions)
    configured ??= report.sim.faults.configured()
    violations += report.violations.length
    for (const e of report.sim.trace.entries()) {
      // Rate-drawn duplicates and reordering act through the delivery area's own knobs.
      const knob = e.kind === 'delivery.fault' ? KNOB_KINDS[String(e.data.kind)] : undefined
      if (knob !== undefined) {
        fired[knob] = (fired[knob] ?? 0) + 1
        labels[knob] = (labels[knob] ?? 0) + 1
        continue
      }
      if (e.kind !== 'fault') continue
      const kind = e.data.kind as FaultKind
      if (e.data.applied === false) continue
      fired[kind] = (fired[kind] ?? 0) + 1
      const label = String(e.data.label)
      labels[label] = (labels[label] ?? 0) + 1
    }
  }
  const expected = options.expect ?? configured ?? []
  const missing = expected.filter((k) => (fired[k] ?? 0) === 0)
  return { runs, fired, labels, configured: expected, missing, violations, ok: missing.length === 0 }
}
