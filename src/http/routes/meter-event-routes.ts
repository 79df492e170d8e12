import { z } from 'zod'
import { isoTime } from '#kernel/time.js'
import { nonEmpty } from '../params.js'
import type { Route } from '../route.js'
import { MAX_IDENTIFIER_LENGTH, parseIsoTimestamp, parseStreamBody } from './meter-event-body.js'

const isoTimestamp = z.string().refine((v) => !Number.isNaN(parseIsoTimestamp(v)), {
  message: 'Invalid timestamp: expected an ISO 8601 timestamp such as 2026-01-01T00:00:00.000Z',
})

const createBody = z.object({
  event_name: nonEmpty.max(100),
  // A map of strings (the catalogue check refuses other values); what the strings mean is the
  // meter's business (payload_invalid_value and friends).
  payload: z.record(z.string(), z.string()),
  identifier: nonEmpty.max(MAX_IDENTIFIER_LENGTH).optional(),
  timestamp: isoTimestamp.optional(),
})

/**
 * `/v2/billing/meter_events` (validated at once, processed later) and
 * `/v2/billing/meter_event_stream` (session token only; accepted at once, validated and processed
 * later).
 */
export const meterEventRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v2/billing/meter_events',
    operation: 'v2.billing.meterEvents.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const event = ctx.service.meterEvents.create(
        { account: ctx.principal.account.id, mode: ctx.principal.mode },
        {
          eventName: b.event_name,
          payload: b.payload,
          identifier: b.identifier,
          timestamp: b.timestamp === undefined ? undefined : parseIsoTimestamp(b.timestamp),
        },
        ctx.inflight,
      )
      return {
        object: 'v2.billing.meter_event',
        created: isoTime(event.created),
        event_name: event.eventName,
        identifier: event.identifier,
        livemode: event.mode === 'live',
        payload: event.payload,
        timestamp: isoTime(event.timestamp),
      }
    },
  },
  {
    method: 'POST',
    path: '/v2/billing/meter_event_stream',
    operation: 'v2.billing.meterEventStream.create',
    auth: 'session',
    // The hot path: parseStreamBody checks every event by hand; the catalogue check only refuses unknown top-level keys.
    checksOwn: ['events'],
    handle(ctx) {
      const batch = parseStreamBody(ctx.body as Record<string, unknown>)
      ctx.service.meterEvents.ingest(
        { account: ctx.principal.account.id, mode: ctx.principal.mode },
        batch.events,
        batch.timestamps,
      )
      return {}
    },
  },
]
