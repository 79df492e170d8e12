import { isOrganisationDestination, routes } from '../destinations/routing.js'
import type { StoredEvent } from '../event.js'
import { traceAttempt } from './attempt-log.js'
import { SYNC_TIMEOUT_MS } from './constants.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryRecord } from './delivery-record.js'
import { openRecord } from './new-record.js'
import type { Send } from './send.js'

/**
 * The result of a synchronous event: delivered while the triggering action waits.
 *
 * @example
 * const { approved, records } = await sim.admin.triggerSync('issuing_authorization.request')
 */
export interface SyncOutcome {
  readonly event: StoredEvent
  /** True when a receiver answered 2xx with `{ "approved": true }`. */
  readonly approved: boolean
  readonly records: DeliveryRecord[]
}

/**
 * Synchronous delivery (issuing authorisations): the event goes at once to every account
 * destination that takes it (organisation destinations never decide), each with one attempt and
 * a short time-out; it is approved when any receiver answers 2xx with `{ "approved": true }`.
 *
 * @example
 * const deliverSync = createSynchronous(ctx, send)
 * const { approved } = await deliverSync(event)
 */
export function createSynchronous(ctx: DeliveryContext, send: Send): (event: StoredEvent) => Promise<SyncOutcome> {
  const { clock, trace } = ctx.kernel
  return async (event) => {
    ctx.index.seen(event)
    const targets = ctx.destinations.all().filter((d) => routes(d, event, ctx.accounts) && !isOrganisationDestination(d))
    const results = await Promise.all(
      targets.map(async (d) => {
        const r = openRecord(ctx, event, d)
        r.firstAttemptAt = clock.now
        const { attempt: a, body } = await send(r, event, d, 'synchronous', SYNC_TIMEOUT_MS)
        r.status = a.outcome === 'delivered' ? 'Delivered' : 'Failed'
        traceAttempt(trace, r, a)
        return { r, approved: a.outcome === 'delivered' && approvedIn(body) }
      }),
    )
    const approved = results.some((x) => x.approved)
    trace.append('delivery.synchronous', { event: event.id, approved, destinations: targets.map((d) => d.id) })
    return { event, approved, records: results.map((x) => x.r) }
  }
}

function approvedIn(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { approved?: unknown }
    return parsed.approved === true
  } catch {
    return false
  }
}
