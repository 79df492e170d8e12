import type { Trace } from '#kernel/trace.js'
import type { AttemptOutcome, AttemptTrigger, DeliveryAttempt, DeliveryRecord } from './delivery-record.js'
import type { TransportResult } from './delivery-transport.js'

/**
 * An attempt as recorded, with the answer's body (a synchronous event's decision reads it).
 *
 * @example
 * const { attempt, body } = recordAttempt(r, 'automatic', at, clock.now, result)
 */
export interface Sent {
  readonly attempt: DeliveryAttempt
  readonly body: string
}

/**
 * How an answer counts: 2xx is delivered, any other status an `http_error` (3xx included, per the
 * spec), else the transport's failure kind.
 *
 * @example
 * outcomeOf({ kind: 'response', status: 302, body: '' }) // 'http_error'
 */
export function outcomeOf(result: TransportResult): AttemptOutcome {
  const ok = result.kind === 'response' && result.status >= 200 && result.status < 300
  return ok ? 'delivered' : result.kind === 'response' ? 'http_error' : result.kind
}

/**
 * Appends one attempt to a record.
 *
 * @example
 * recordAttempt(r, 'automatic', startedAt, clock.now, result)
 */
export function recordAttempt(
  r: DeliveryRecord,
  trigger: AttemptTrigger,
  at: number,
  now: number,
  result: TransportResult,
): Sent {
  const attemptRecord: DeliveryAttempt = {
    at,
    trigger,
    outcome: outcomeOf(result),
    status: result.kind === 'response' ? result.status : null,
    durationMs: now - at,
    ...(result.kind === 'response' ? {} : { message: result.message }),
  }
  r.attempts.push(attemptRecord)
  return { attempt: attemptRecord, body: result.kind === 'response' ? result.body : '' }
}

/**
 * One trace entry per attempt, written once its consequences (status, next attempt) are known.
 *
 * @example
 * traceAttempt(trace, r, attempt)
 */
export function traceAttempt(trace: Trace, r: DeliveryRecord, a: DeliveryAttempt): void {
  trace.append('delivery.attempt', {
    event: r.eventId,
    destination: r.destinationId,
    trigger: a.trigger,
    attempt: r.attempts.length,
    outcome: a.outcome,
    status: a.status,
    duration: a.durationMs,
    delivery: r.status,
    next: r.nextAttemptAt,
  })
}

/**
 * Awaits a maybe-synchronous value without a promise when it is already there.
 *
 * @example
 * andThen(send(...), ({ attempt }) => attempt.outcome)
 */
export function andThen<T, U>(value: T | Promise<T>, next: (v: T) => U): U | Promise<Awaited<U>> {
  return value instanceof Promise ? (value.then(next) as Promise<Awaited<U>>) : next(value)
}
