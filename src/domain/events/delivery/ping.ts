import type { Scope } from '../../mode.js'
import type { StoredEvent } from '../event.js'
import type { AttemptSchedule } from './attempt-schedule.js'
import { PING_TYPE } from './constants.js'
import type { DeliveryContext } from './delivery-context.js'
import { openRecord } from './new-record.js'

/**
 * Sends a `v2.core.event_destination.ping` thin event to one destination of the scope (also when
 * it is disabled), as an attempt of its own (on an EventBridge destination, put on its bus); no
 * other destination receives it.
 *
 * @example
 * const ping = createPing(ctx, schedule)
 * ping(scope, 'ed_1') // the ping event
 */
export function createPing(
  ctx: DeliveryContext,
  schedule: AttemptSchedule,
): (scope: Scope, destinationId: string) => StoredEvent {
  return (scope, destinationId) => {
    const d = ctx.destinations.get(scope, destinationId)
    const event = ctx.events.thin({
      type: PING_TYPE,
      account: d.account,
      mode: d.mode,
      relatedObject: { id: d.id, type: 'v2.core.event_destination', url: `/v2/core/event_destinations/${d.id}` },
    })
    if (d.type === 'amazon_eventbridge') {
      // No receiver to attempt: the ping goes on the destination's virtual bus.
      ctx.kernel.trace.append('eventbridge.put', { event: event.id, destination: d.id, account: d.account, mode: d.mode })
      return event
    }
    const r = openRecord(ctx, event, d)
    schedule.attempt(r, ctx.kernel.clock.now, 'ping')
    return event
  }
}
