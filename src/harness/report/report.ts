import { canonicalJson, type TraceEntry } from '#kernel/index.js'
import { tallyOutcomes } from '../scenario/expectations.js'
import type { RunResult } from '../scenario/run-result.js'
import { traceRecords } from './trace-records.js'

/** Version of the report.json layout. */
export const REPORT_FORMAT = 1

/** The machine-readable report of one run (what `report.json` holds). */
export interface Report {
  readonly format: number
  readonly scenario: string
  readonly description: string
  readonly seed: string
  readonly start: string
  readonly end: string
  readonly ok: boolean
  readonly summary: {
    readonly steps: number
    readonly requests: number
    readonly outcomes: Record<string, number>
    readonly faults: number
    readonly deliveries: number
    readonly verdicts: { readonly held: number; readonly violated: number }
  }
  readonly verdicts: RunResult['verdicts']
  readonly steps: RunResult['steps']
  readonly requests: RunResult['requests']
  readonly faults: RunResult['faults']
  readonly deliveries: RunResult['deliveries']
  readonly markers: RunResult['markers']
  /** Usage processed, invoice events and payments read from the trace; absent when there were none. */
  readonly billing?: RunResult['markers']
  readonly trace: { readonly hash: string; readonly length: number }
  /** A flow run's (event type, object state, fault, deploy) combinations (`FlowReport.coverage`); absent for other runs. */
  readonly coverage?: readonly string[]
}

/**
 * Builds the report of a run. Holds only virtual times and seeded values, so the same scenario
 * and seed give the same report in any process. With the run's `trace`, requests, delivery
 * attempts and delivery markers the runner did not record itself are read from it.
 *
 * @example
 * const report = buildReport(await runScenario(scenario))
 */
export function buildReport(input: RunResult, trace?: readonly TraceEntry[]): Report {
  let result = input
  let billing: RunResult['markers'] = []
  if (trace !== undefined) {
    const read = traceRecords(trace, input.steps)
    billing = read.billing
    result = {
      ...input,
      requests: input.requests.length > 0 ? input.requests : read.requests,
      deliveries: input.deliveries.length > 0 ? input.deliveries : read.deliveries,
      markers: input.markers.length > 0 ? input.markers : read.markers,
    }
  }
  const held = result.verdicts.filter((v) => v.ok).length
  return {
    format: REPORT_FORMAT,
    scenario: result.scenario,
    description: result.description,
    seed: result.seed,
    start: new Date(result.start).toISOString(),
    end: new Date(result.end).toISOString(),
    ok: result.ok,
    summary: {
      steps: result.steps.length,
      requests: result.requests.length,
      outcomes: tallyOutcomes(result.requests),
      faults: result.faults.length,
      deliveries: result.deliveries.length,
      verdicts: { held, violated: result.verdicts.length - held },
    },
    verdicts: result.verdicts,
    steps: result.steps,
    requests: result.requests,
    faults: result.faults,
    deliveries: result.deliveries,
    markers: result.markers,
    ...(billing.length > 0 ? { billing } : {}),
    trace: { hash: result.traceHash, length: result.traceLength },
    ...(result.coverage === undefined ? {} : { coverage: result.coverage }),
  }
}

/**
 * The bytes of `report.json`: canonical JSON (sorted keys), one trailing newline.
 *
 * @example
 * writeFileSync('report.json', reportJson(report))
 */
export function reportJson(report: Report): string {
  return `${canonicalJson(report)}\n`
}
