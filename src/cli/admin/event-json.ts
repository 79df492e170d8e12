import type { Simulator } from '#simulator/index.js'
import { iso } from './admin-io.js'
import { deliveryAnswer } from './delivery-answers.js'

type DeliveryRow = ReturnType<Simulator['admin']['deliveries']>[number]
type EventRow = ReturnType<Simulator['admin']['events']>[number]

/**
 * The JSON of one attempt of a delivery; `answer` is the receiver's body, when serve kept it.
 *
 * @example
 * attemptJson(record.attempts[0]) // { at: '2026-…', trigger: 'automatic', outcome: 'failed', status: 500, duration_ms: 12 }
 */
export function attemptJson(a: DeliveryRow['attempts'][number], answer?: string) {
  return {
    at: iso(a.at),
    trigger: a.trigger,
    outcome: a.outcome,
    status: a.status,
    duration_ms: a.durationMs,
    ...(a.message === undefined ? {} : { message: a.message }),
    ...(answer === undefined ? {} : { answer }),
  }
}

/**
 * The JSON of a delivery: every attempt (with the receiver's answer), and the next automatic one.
 *
 * @example
 * deliveryJson(sim, sim.admin.deliveries()[0]) // { event: 'evt_…', destination: 'we_…', status: 'Failed', attempts: [...] }
 */
export function deliveryJson(sim: Simulator, r: DeliveryRow) {
  return {
    event: r.eventId,
    event_type: r.eventType,
    destination: r.destinationId,
    url: r.url,
    mode: r.mode,
    status: r.status,
    retries: r.retries,
    next_attempt_at: iso(r.nextAttemptAt),
    cancelled: r.cancelled ?? null,
    attempts: r.attempts.map((a) => attemptJson(a, deliveryAnswer(sim, r.eventId, r.url, a.at, a.durationMs))),
  }
}

/**
 * The JSON of an emitted event (without its body).
 *
 * @example
 * eventJson(sim.admin.events()[0]) // { id: 'evt_…', type: 'customer.created', account: 'acct_…', mode: 'test', ... }
 */
export const eventJson = (e: EventRow) => ({
  id: e.id,
  type: e.type,
  account: e.account,
  mode: e.mode,
  kind: e.kind,
  created: iso(e.at),
})
