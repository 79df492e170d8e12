import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { Mode } from '../mode.js'

/**
 * What an admission gate sees of a request before its handler runs: enough to decide rate,
 * concurrency and lock outcomes without knowing HTTP.
 */
export interface Admission {
  readonly operation: string
  readonly method: string
  readonly account: string
  readonly authenticated: string
  readonly mode: Mode
  readonly onBehalf: boolean
  /** The id in the path the operation reads or changes, if any. */
  readonly objectId: string | undefined
  readonly mutates: boolean
  readonly inflight: InFlightRequest
  readonly body: unknown
  /** The path namespace: refusals use its error `type` (v2 clients map `rate_limit`). Default v1. */
  readonly api?: 'v1' | 'v2'
}

/**
 * A check run before a handler (limiters, locks, injected faults). It throws a ServiceError to
 * refuse the request, which then changes no state, or returns a function run when the request
 * leaves (to release a lock or a concurrency slot).
 */
export type Gate = (admission: Admission) => void | (() => void)
