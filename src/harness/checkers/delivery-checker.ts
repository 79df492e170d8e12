import { TEST_RETRY_OFFSETS_MS } from '#domain/index.js'
import type { TraceEntry } from '#kernel/index.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

/** Trace kinds a delivery history is written with. */
export interface DeliveryKinds {
  /** Kind of the entry that opens a delivery (one event to one destination). */
  readonly scheduled: string
  /** One entry per attempt, with `trigger`, `outcome` and `attempt` (its number in the delivery). */
  readonly attempt: string
  /** Written when the automatic schedule is spent and the delivery is Failed. */
  readonly exhausted: string
  /** Written when automatic delivery stopped early (destination disabled or deleted): an end, not a violation. */
  readonly cancelled: string
  /** Automatic attempts (first + retries) the whole retry window makes. */
  readonly maxAttempts: number
}

/**
 * The kinds the service's delivery domain writes, for test-mode
 * destinations: a first attempt and three retries.
 *
 * @example
 * checkDeliveries(entries, { ...deliveryKinds, maxAttempts: 6 }) // a schedule with five retries
 */
export const deliveryKinds: DeliveryKinds = {
  scheduled: 'delivery.scheduled',
  attempt: 'delivery.attempt',
  exhausted: 'delivery.exhausted',
  cancelled: 'delivery.cancelled',
  maxAttempts: 1 + TEST_RETRY_OFFSETS_MS.length,
}

const AUTOMATIC = new Set(['automatic', 'retry'])

/**
 * Delivery checker over the service's own delivery trace: every event reaches each destination it
 * was routed to with a 2xx, or is Failed after the whole retry window (`maxAttempts` automatic
 * attempts) with every attempt recorded (the exhausted entry counts exactly the attempts traced
 * before it). Witnesses: the `delivery.scheduled` entry and the last attempt or the exhausted entry.
 *
 * @example
 * checkDeliveries(sim.trace.entries()) // [] when every delivery ended as the service promises
 */
export function checkDeliveries(entries: readonly TraceEntry[], kinds: DeliveryKinds = deliveryKinds): Violation[] {
  refuseNotEntries('checkDeliveries', entries)
  const out: Violation[] = []
  interface Pair {
    origin: TraceEntry
    attempts: TraceEntry[]
    delivered: boolean
    end?: TraceEntry
    tracedAtEnd?: number
  }
  const pairs = new Map<string, Pair>()
  for (const e of entries) {
    if (e.kind !== kinds.scheduled && e.kind !== kinds.attempt && e.kind !== kinds.exhausted && e.kind !== kinds.cancelled) {
      continue
    }
    const key = `${String(e.data.event)}|${String(e.data.destination)}`
    if (e.kind === kinds.scheduled) {
      if (!pairs.has(key)) pairs.set(key, { origin: e, attempts: [], delivered: false })
      continue
    }
    const pair = pairs.get(key)
    if (pair === undefined) continue
    if (e.kind === kinds.attempt) {
      pair.attempts.push(e)
      if (e.data.outcome === 'delivered') pair.delivered = true
    } else if (pair.end === undefined) {
      pair.end = e
      pair.tracedAtEnd = pair.attempts.length
    }
  }
  for (const [key, pair] of pairs) {
    if (pair.delivered || pair.end?.kind === kinds.cancelled) continue
    const event = key.slice(0, key.indexOf('|'))
    const { origin, attempts, end } = pair
    if (end === undefined) {
      out.push(violation('delivery.outcome', `event ${event} was neither delivered nor Failed`, [origin, ...attempts.slice(-1)]))
      continue
    }
    const automatic = attempts.filter((a) => AUTOMATIC.has(String(a.data.trigger))).length
    if (automatic !== kinds.maxAttempts || Number(end.data.attempts) !== pair.tracedAtEnd) {
      out.push(
        violation(
          'delivery.attempts',
          `event ${event} Failed after ${automatic} automatic attempts (${kinds.maxAttempts} expected), ${String(end.data.attempts)} counted, ${String(pair.tracedAtEnd)} recorded`,
          [origin, end],
        ),
      )
    }
  }
  return out
}

/**
 * The delivery outcome checker as a `Checker` (scenario name `deliveries`).
 *
 * @example
 * await deliveryChecker.check({ entries: sim.trace.entries(), requests: [], deliveries: [] })
 */
export const deliveryChecker = traceChecker(
  'deliveries',
  (entries) => checkDeliveries(entries),
  'every delivery acknowledged, or failed after the whole retry window with every attempt traced',
)
