import type { TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { refuseArgument } from '../refuse-argument.js'
import type { DeliveryRecord, RequestRecord } from '../scenario/run-result.js'
import type { Violation } from './violation.js'

/**
 * What a checker reads: the run's trace, and what the runner recorded beside it (the requests a
 * scenario sent and the deliveries its receivers saw; empty for a property program).
 *
 * @example
 * const history: History = { entries: sim.trace.entries(), requests: [], deliveries: [], sim }
 */
export interface History {
  readonly entries: readonly TraceEntry[]
  readonly requests: readonly RequestRecord[]
  readonly deliveries: readonly DeliveryRecord[]
  readonly sim?: Simulator | undefined
  /** Runs the same scenario and seed again in this process and returns its trace hash (scenarios only). */
  readonly rerun?: (() => Promise<string>) | undefined
}

/**
 * The one checker API, for scenarios (`expectations.checkers: [name]`) and property programs alike:
 * a named reader of a run's history that names every violation, with their witnesses.
 *
 * @example
 * const no429: Checker = {
 *   name: 'no-429',
 *   check: ({ requests }) => requests.filter((r) => r.status === 429).map((r) => recordViolation('no-429', `${r.path} was limited`, [r])),
 * }
 */
export interface Checker {
  /** The name scenarios use, e.g. `no-server-errors`, `usage`. */
  readonly name: string
  check(history: History): readonly Violation[] | Promise<readonly Violation[]>
  /** What was verified, for the report line of a run without violations. */
  holds?(history: History): string
}

/**
 * The function form of the trace checkers (`checkUsage`, `checkClient`, ...).
 *
 * @deprecated Use `Checker` (`usageChecker.check({ entries, requests: [], deliveries: [] })`); this
 * is the old name of the function form, kept so existing code compiles.
 * @example
 * const mine: TraceCheck = (entries) => checkUsage(entries)
 */
export type TraceCheck = (entries: readonly TraceEntry[]) => Violation[]

/**
 * A `Checker` over the trace entries alone (the form of the usage, client, receiver, delivery and
 * billing checkers).
 *
 * @example
 * export const usageChecker = traceChecker('usage', checkUsage, 'every acknowledged usage billed once')
 */
export function traceChecker(name: string, check: (entries: readonly TraceEntry[]) => Violation[], holds: string): Checker {
  return guardedChecker({ name, check: ({ entries }) => check(entries), holds: () => holds })
}

/**
 * A bundled checker that refuses, naming itself, what is not a history, rather than failing inside
 * on a missing `entries`, `requests` or `deliveries` (a user may call `check` directly).
 *
 * @example
 * export const noRetriesChecker = guardedChecker({ name: 'no-retries', check: ({ requests }) => [] })
 */
export function guardedChecker(checker: Checker): Checker {
  const api = `checker '${checker.name}'`
  const { check, holds } = checker
  return {
    name: checker.name,
    check: (history) => {
      refuseArgument(`${api} check`, 'history', history, 'history')
      return check(history)
    },
    ...(holds === undefined
      ? {}
      : {
          holds: (history: History) => {
            refuseArgument(`${api} holds`, 'history', history, 'history')
            return holds(history)
          },
        }),
  }
}
