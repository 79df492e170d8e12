import type { TraceEntry } from '#kernel/index.js'
import type { DeliveryRecord, Marker, RequestRecord, StepRecord } from '../scenario/run-result.js'

/** What a report can read from a run's trace alone. */
export interface TraceRecords {
  readonly requests: RequestRecord[]
  readonly deliveries: DeliveryRecord[]
  readonly markers: Marker[]
  /** Billing on the timeline: meter usage processed, `invoice.*` events, payment attempts (charges). */
  readonly billing: Marker[]
}

/** The invoice events the timeline shows (`invoice.payment_succeeded` doubles `invoice.paid`). */
const INVOICE_EVENTS = new Set(['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_failed'])

/** The executed step an instant belongs to: the last one that began at or before it. */
function stepAt(steps: readonly StepRecord[], at: number): number {
  let n = steps[0]?.n ?? 0
  for (const s of steps) if (s.at <= at) n = s.n
  return n
}

/**
 * Reads requests (`http`), delivery attempts (`delivery.attempt`), delivery markers
 * (`delivery.scheduled`, `delivery.exhausted`) and billing (`meter_events.processed`, `invoice.*`
 * events, `charge.attempted`) from a trace, so a run whose runner recorded none of
 * them itself (a property-harness replay, a scenario without receivers) still gets a full report.
 *
 * @example
 * const { deliveries } = traceRecords(sim.trace.entries(), result.steps)
 */
export function traceRecords(entries: readonly TraceEntry[], steps: readonly StepRecord[]): TraceRecords {
  const requests: RequestRecord[] = []
  const deliveries: DeliveryRecord[] = []
  const markers: Marker[] = []
  const billing: Marker[] = []
  // Nth attempt seen per event and destination (duplicates count as attempts, as a receiver sees them).
  const seen = new Map<string, number>()
  for (const e of entries) {
    const d = e.data
    if (e.kind === 'http') {
      const status = Number(d.status)
      requests.push({
        step: stepAt(steps, e.at),
        at: e.at,
        method: String(d.method),
        path: String(d.path),
        status,
        outcome: String(status),
        ...(typeof d.request_id === 'string' ? { requestId: d.request_id } : {}),
        source: 'trace',
      })
    } else if (e.kind === 'delivery.attempt') {
      const key = `${String(d.destination)} ${String(d.event)}`
      const attempt = (seen.get(key) ?? 0) + 1
      seen.set(key, attempt)
      deliveries.push({
        at: e.at,
        receiver: String(d.destination),
        eventId: typeof d.event === 'string' ? d.event : null,
        type: null,
        status: typeof d.status === 'number' ? d.status : 0,
        attempt,
        signature: 'unchecked',
      })
    } else if (e.kind === 'delivery.scheduled' || e.kind === 'delivery.exhausted') {
      const detail = [d.destination, d.event, d.attempts === undefined ? undefined : `after ${String(d.attempts)} attempts`]
        .filter((x) => x !== undefined)
        .join(' ')
      markers.push({ at: e.at, kind: e.kind, detail })
    } else if (e.kind === 'meter_events.processed' && e.data.accepted > 0) {
      const from = e.data.source === 'sync' ? `meter ${e.data.meter}` : `stream batch ${e.data.batch}`
      billing.push({ at: e.at, kind: 'usage processed', detail: `${e.data.accepted} event(s), ${from}` })
    } else if (e.kind === 'event.emitted' && INVOICE_EVENTS.has(e.data.type)) {
      billing.push({ at: e.at, kind: e.data.type, detail: e.data.id })
    } else if (e.kind === 'charge.attempted') {
      billing.push({ at: e.at, kind: `payment ${e.data.status}`, detail: e.data.id })
    }
  }
  return { requests, deliveries, markers, billing }
}
