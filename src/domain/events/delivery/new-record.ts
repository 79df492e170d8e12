import type { Destination } from '../destinations/destination.js'
import { ORGANISATION_NO_INFLUENCE } from '../destinations/destination-rules.js'
import { isOrganisationDestination } from '../destinations/routing.js'
import type { StoredEvent } from '../event.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryRecord } from './delivery-record.js'

/**
 * Opens the delivery record of an event to a destination, `Pending` with no attempt, and indexes
 * the event (its attempts look it up again).
 *
 * @example
 * const r = openRecord(ctx, event, destination)
 */
export function openRecord(ctx: DeliveryContext, event: StoredEvent, d: Destination): DeliveryRecord {
  const r: DeliveryRecord = {
    eventId: event.id,
    eventType: event.type,
    destinationId: d.id,
    url: d.url,
    mode: d.mode,
    status: 'Pending',
    attempts: [],
    nextAttemptAt: null,
    retries: 0,
    firstAttemptAt: undefined,
    influencesOutcome: !(isOrganisationDestination(d) && ORGANISATION_NO_INFLUENCE.has(event.type)),
    cancelled: undefined,
  }
  ctx.book.add(r)
  ctx.index.remember(event)
  return r
}
