import type { TraceEntry } from '#kernel/trace.js'

/**
 * A property violation: which checker, what went wrong, and the minimal trace entries that witness
 * it (their `seq` numbers and the entries themselves).
 *
 * @example
 * { checker: 'usage.exactly_once', message: 'u3 counted 2 times', witness: [12, 40] }
 */
export interface Violation {
  readonly checker: string
  readonly message: string
  readonly witness: readonly number[]
  readonly entries: readonly TraceEntry[]
}

/**
 * Builds a violation from its witnessing entries, sorted by `seq` and without duplicates.
 *
 * @example
 * violation('receivers.processed', 'evt_1 was acknowledged but never processed', [attempt])
 */
export function violation(checker: string, message: string, entries: readonly TraceEntry[]): Violation {
  // In trace order, each entry once: checkers gather witnesses from several places.
  const sorted = [...new Map(entries.map((e) => [e.seq, e])).values()].sort((a, b) => a.seq - b.seq)
  return { checker, message, witness: sorted.map((e) => e.seq), entries: sorted }
}

/** A history checker: reads the trace entries of a run and names every violation. */
export type Checker = (entries: readonly TraceEntry[]) => Violation[]
