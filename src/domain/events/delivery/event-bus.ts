import { isoTime } from '#kernel/time.js'
import type { Mode } from '../../mode.js'
import type { Service } from '../../service.js'
import type { Destination } from '../destinations/destination.js'
import { PING_TYPE } from './constants.js'
import { deliveryBody } from './payload.js'

/**
 * One event on an `amazon_eventbridge` destination's virtual bus, as the provider's partner event
 * source puts it: the source (the destination's event source), the detail type (the event's type),
 * the time it was put and the detail, the event as the destination's payload kind and version
 * render it (the same bytes a webhook destination would be sent, parsed).
 *
 * @example
 * sim.admin.eventBus('ed_test_…')[0] // { id: 'evt_…', source: 'aws.partner/stripe.com/ed_test_…', detailType: 'customer.created', ... }
 */
export interface EventBusEntry {
  /** The event's id. */
  readonly id: string
  readonly source: string
  readonly detailType: string
  /** When it was put on the bus (ISO 8601, virtual time). */
  readonly time: string
  readonly detail: Readonly<Record<string, unknown>>
}

/**
 * The events put on an EventBridge destination's virtual bus, oldest first (read from the trace's
 * `eventbridge.put` entries, so a snapshot keeps them).
 *
 * @example
 * eventBusOf(service, destination).map((e) => e.detailType) // ['customer.created']
 */
export function eventBusOf(service: Service, d: Destination): EventBusEntry[] {
  return service.kernel.trace
    .filter('eventbridge.put')
    .filter((e) => e.data.destination === d.id)
    .flatMap((e) => {
      const event = service.events.get({ account: e.data.account, mode: e.data.mode as Mode }, e.data.event)
      if (event === undefined) return []
      const kind = event.type === PING_TYPE ? 'thin' : d.eventPayload
      const body = deliveryBody(event, kind, d.snapshotApiVersion, service.events.bodyAt)
      return [
        {
          id: event.id,
          source: `aws.partner/stripe.com/${d.id}`,
          detailType: event.type,
          time: isoTime(e.at),
          detail: JSON.parse(body) as Record<string, unknown>,
        },
      ]
    })
}
