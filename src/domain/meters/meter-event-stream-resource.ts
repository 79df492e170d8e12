import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { parseStreamBody } from './stream-body.js'

/** `POST /v2/billing/meter_event_session`: a 15-minute token for the meter event stream. */
export const meterEventSessions: ResourceDeclaration<ResourcePorts> = {
  type: 'V2.Billing.MeterEventSession',
  object: 'v2.billing.meter_event_session',
  idPrefix: 'mes',
  // Stored (the sessions area keeps them here and derives its token index); no engine verb: the
  // behaviour below is the whole operation.
  only: [],
  behaviours: {
    'v2.billing.meterEventSession.create': (call, _next, { ports }) => ports.metering.sessions.create(call.scope),
  },
}

/**
 * `POST /v2/billing/meter_event_stream` (session token only): accepted at once, validated and
 * processed later. The hot path: `parseStreamBody` checks every event by hand (no schema library
 * per event), so the catalogue check only refuses unknown top-level keys.
 */
export const meterEventStream: ResourceDeclaration<ResourcePorts> = {
  type: 'MeterEventStreamResource',
  object: 'v2.billing.meter_event_stream',
  idPrefix: 'mes',
  ephemeral: true,
  // No engine verb: the behaviour below is the whole operation.
  only: [],
  traits: { 'v2.billing.meterEventStream.create': { auth: 'session', checksOwn: ['events'] } },
  behaviours: {
    'v2.billing.meterEventStream.create'(call, _next, { ports }) {
      const batch = parseStreamBody(call.params as Record<string, unknown>)
      ports.metering.meterEvents.ingest(call.scope, batch.events, batch.timestamps)
      return {}
    },
  },
}
