import { z } from 'zod'
import type { MeterEventAdjustment } from '#domain/meters/meter-events.js'
import { invalidRequest } from '#domain/service-error.js'
import { isoTime } from '#kernel/time.js'
import { expand, formInt, nonEmpty } from '../params.js'
import type { RequestContext, Route } from '../route.js'
import { MAX_IDENTIFIER_LENGTH } from './meter-event-body.js'

function scope(ctx: RequestContext) {
  return { account: ctx.principal.account.id, mode: ctx.principal.mode }
}

const v1EventBody = z.object({
  event_name: nonEmpty.max(100),
  // Values are judged by the meter's rules (payload_invalid_value and friends), not by the schema.
  payload: z.record(z.string(), z.unknown()),
  identifier: nonEmpty.max(MAX_IDENTIFIER_LENGTH).optional(),
  /** Unix seconds. */
  timestamp: formInt.optional(),
  expand,
})

const cancel = z.object({ identifier: nonEmpty.max(MAX_IDENTIFIER_LENGTH) })
const v1AdjustmentBody = z.object({
  event_name: nonEmpty.max(100),
  type: z.literal('cancel'),
  // Optional in the client's declaration ("time period cancellation is not supported yet"), so
  // with `type: 'cancel'` the service needs it: refused as a missing parameter below.
  cancel: cancel.optional(),
  expand,
})
const v2AdjustmentBody = z.object({ event_name: nonEmpty.max(100), type: z.literal('cancel'), cancel })

function adjustmentV1(a: MeterEventAdjustment): Record<string, unknown> {
  return {
    object: 'billing.meter_event_adjustment',
    cancel: { identifier: a.identifier },
    event_name: a.eventName,
    livemode: a.mode === 'live',
    status: a.status,
    type: 'cancel',
  }
}

function adjustmentV2(a: MeterEventAdjustment): Record<string, unknown> {
  return {
    id: a.id,
    object: 'v2.billing.meter_event_adjustment',
    cancel: { identifier: a.identifier },
    created: isoTime(a.created),
    event_name: a.eventName,
    livemode: a.mode === 'live',
    status: a.status,
    type: 'cancel',
  }
}

/**
 * `/v1/billing/meter_events` (the v1 synchronous path: form body, unix-second times, same rules and
 * codes as v2) and the meter event adjustments of both versions (cancel one event by identifier).
 */
export const meterAdjustmentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/billing/meter_events',
    operation: 'billing.meterEvents.create',
    body: v1EventBody,
    checksOwn: ['payload'],
    handle(ctx) {
      const b = ctx.body as z.infer<typeof v1EventBody>
      const event = ctx.service.meterEvents.create(
        scope(ctx),
        {
          eventName: b.event_name,
          payload: b.payload,
          identifier: b.identifier,
          timestamp: b.timestamp === undefined ? undefined : b.timestamp * 1000,
        },
        ctx.inflight,
      )
      return {
        object: 'billing.meter_event',
        created: Math.floor(event.created / 1000),
        event_name: event.eventName,
        identifier: event.identifier,
        livemode: event.mode === 'live',
        payload: event.payload,
        timestamp: Math.floor(event.timestamp / 1000),
      }
    },
  },
  {
    method: 'POST',
    path: '/v1/billing/meter_event_adjustments',
    operation: 'billing.meterEventAdjustments.create',
    body: v1AdjustmentBody,
    mutates: true,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof v1AdjustmentBody>
      if (b.cancel === undefined) {
        throw invalidParam('cancel', "Missing required param: cancel (required when type is 'cancel').", 'parameter_missing')
      }
      return adjustmentV1(
        ctx.service.meterEvents.adjust(scope(ctx), { eventName: b.event_name, identifier: b.cancel.identifier }),
      )
    },
  },
  {
    method: 'POST',
    path: '/v2/billing/meter_event_adjustments',
    operation: 'v2.billing.meterEventAdjustments.create',
    body: v2AdjustmentBody,
    mutates: true,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof v2AdjustmentBody>
      return adjustmentV2(
        ctx.service.meterEvents.adjust(scope(ctx), { eventName: b.event_name, identifier: b.cancel.identifier }),
      )
    },
  },
]

function invalidParam(param: string, message: string, code: string) {
  return invalidRequest(message, { code, param })
}
