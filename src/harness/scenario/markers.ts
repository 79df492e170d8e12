import { deliveryTraceKinds } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { Marker } from './run-result.js'

/**
 * Points of interest read from the trace, in time order: session expiries (due by `end`, or ended
 * early) and the service's delivery records.
 *
 * @example
 * const markers = markersOf(sim, sim.clock.now)
 */
export function markersOf(sim: Simulator, end: number): Marker[] {
  const out: Marker[] = []
  for (const e of sim.trace.entries()) {
    if (e.kind === 'session.created' && typeof e.data.expires_at === 'number' && e.data.expires_at <= end) {
      out.push({ at: e.data.expires_at, kind: 'session expiry', detail: String(e.data.id) })
    } else if (e.kind === 'session.expired') {
      out.push({ at: e.at, kind: 'session expiry', detail: `${String(e.data.id)} (ended early)` })
    } else if (deliveryTraceKinds.has(e.kind)) {
      const d: Readonly<Record<string, unknown>> = e.data
      const detail = [d.destination ?? d.url, d.event ?? d.eventId, d.outcome ?? d.status, d.trigger]
        .filter((x) => x !== undefined)
        .join(' ')
      out.push({ at: e.at, kind: e.kind, detail })
    }
  }
  return out.sort((a, b) => a.at - b.at)
}
