import type { FaultDecision, RequestRecord, StepRecord } from '#harness/scenario/run-result.js'
import { formatDuration } from '#kernel/index.js'

/**
 * One line per executed step, in virtual time from the start: `+15m  #4 POST /v2/... -> 401 ...`.
 * Fault decisions get their own `!` lines: before the step for a scenario (its schedule applies
 * before step n), after it for a harness replay (its faults fire while the step runs).
 *
 * @example
 * timelineLines(start, step, requests, faults).forEach((l) => console.log(l))
 */
export function timelineLines(
  start: number,
  step: StepRecord,
  requests: readonly RequestRecord[],
  faults: readonly FaultDecision[],
  faultsAfter = false,
): string[] {
  const at = (t: number) => `+${formatDuration(t - start)}`.padEnd(12)
  const faultLines = faults.map((f) => `${at(f.at)} ! fault ${f.fault} (${f.source}): ${f.note}`)
  const lines = faultsAfter ? [] : faultLines
  const tally = new Map<string, number>()
  for (const r of requests) tally.set(r.outcome, (tally.get(r.outcome) ?? 0) + 1)
  const outcomes = [...tally].map(([o, n]) => (n > 1 ? `${n}x ${o}` : o)).join(', ')
  lines.push(
    `${at(step.at)} #${String(step.n).padEnd(3)} ${step.label}${outcomes ? ` -> ${outcomes}` : ''}${step.ok ? '' : `  FAILED: ${step.note ?? ''}`}`,
  )
  return faultsAfter ? [...lines, ...faultLines] : lines
}
