import type { TraceEntry } from '#kernel/trace.js'

/** One fault decision as read back from a trace. */
export interface FaultLogLine {
  readonly seq: number
  readonly at: number
  readonly step: number
  readonly label: string
  readonly source: string
  readonly detail: Readonly<Record<string, unknown>>
}

/**
 * The fault decisions of a run, read from its trace (`fault` entries), for printing or saving.
 * Replaying the same seed, policy and inputs makes the same decisions again.
 *
 * @example
 * for (const f of faultLog(sim.trace.entries())) console.log(`step ${f.step}: ${f.label} (${f.source})`)
 */
export function faultLog(entries: readonly TraceEntry[]): FaultLogLine[] {
  if (!Array.isArray(entries))
    throw new TypeError(`faultLog: expected a run's trace entries (an array, e.g. sim.trace.entries()), got ${typeof entries}`)
  return entries
    .filter((e) => e?.kind === 'fault')
    .map((e) => {
      const { label, source, step, kind: _k, ...detail } = e.data
      return { seq: e.seq, at: e.at, step: Number(step), label: String(label), source: String(source), detail }
    })
}
