import type { Simulator } from '#simulator/index.js'
import { iso } from './admin-io.js'
import { eventJson } from './event-json.js'

type DeliveryRow = ReturnType<Simulator['admin']['deliveries']>[number]
type DeliveryStatus = DeliveryRow['status']

/**
 * Which events a window lists: text the type holds, and a delivery status at least one of the
 * event's deliveries is in now.
 *
 * @example
 * const filter: EventFilter = { type: 'invoice.', delivery_status: 'Failed' }
 */
export interface EventFilter {
  readonly type?: string | undefined
  readonly delivery_status?: DeliveryStatus | undefined
}

/** A delivery as an event's row sums it up: where, how it stands, how many attempts, the next one. */
const deliverySummary = (r: DeliveryRow) => ({
  destination: r.destinationId,
  url: r.url,
  status: r.status,
  attempts: r.attempts.length,
  last_status: r.attempts.at(-1)?.status ?? null,
  next_attempt_at: iso(r.nextAttemptAt),
})

/**
 * A window of the events a simulator emitted, newest first: the `limit` events from `offset` among
 * those matching `filter`, each with a summary of its deliveries (per destination: status,
 * attempts, the next automatic one), and how many match (`total`) and were emitted (`count`). A
 * delivery's attempts and answers are read for one event at a time (`GET /deliveries?event=`).
 *
 * @example
 * eventWindow(sim, { offset: 0, limit: 50, delivery_status: 'Failed' }) // { total: 3, count: 10000, data: [...] }
 */
export function eventWindow(sim: Simulator, query: EventFilter & { offset: number; limit: number }) {
  const events = sim.admin.events()
  const { type, delivery_status: status } = query
  const inStatus = status === undefined ? undefined : new Set(sim.admin.deliveries({ status }).map((d) => d.eventId))
  const shown: (typeof events)[number][] = []
  let total = 0
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as (typeof events)[number]
    if (type !== undefined && !e.type.includes(type)) continue
    if (inStatus !== undefined && !inStatus.has(e.id)) continue
    if (total >= query.offset && shown.length < query.limit) shown.push(e)
    total++
  }
  const byEvent = new Map(shown.map((e) => [e.id, [] as ReturnType<typeof deliverySummary>[]]))
  if (shown.length > 0) for (const d of sim.admin.deliveries()) byEvent.get(d.eventId)?.push(deliverySummary(d))
  return {
    total,
    count: events.length,
    offset: query.offset,
    data: shown.map((e) => ({ ...eventJson(e), deliveries: byEvent.get(e.id) ?? [] })),
  }
}
