import type { TraceEntry } from '#kernel/index.js'
import { refuseArgument } from '../refuse-argument.js'

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
  /** Witnesses that are not trace entries (requests, deliveries), at most five. */
  readonly records?: readonly unknown[] | undefined
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

/**
 * A violation witnessed by records the runner kept (requests, deliveries) rather than trace entries.
 *
 * @example
 * recordViolation('no-server-errors', '2 request(s) answered 5xx', bad)
 */
export function recordViolation(checker: string, message: string, records: readonly unknown[]): Violation {
  refuseArgument('recordViolation', 'checker', checker, 'string')
  if (typeof message !== 'string') refuseArgument('recordViolation', 'message', message, 'string')
  refuseArgument('recordViolation', 'records', records, 'array')
  return { checker, message, witness: [], entries: [], records: records.slice(0, 5) }
}
