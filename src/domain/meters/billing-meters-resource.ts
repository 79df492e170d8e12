import { DEFAULT_VALUE_PAYLOAD_KEY } from '#catalogue/rules.js'
import { checkLength, checkNotEmpty } from '../engine/checks.js'
import type { OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { pageV1 } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { eventSummaries, type SummaryQuery } from './event-summaries.js'
import type { Meter } from './meter.js'
import { METER_OBJECT } from './meters.js'

/** Longest display name, event name and payload key the provider accepts. */
const MAX = { display_name: 250, event_name: 100, event_payload_key: 100 } as const

function checkCreate(params: Readonly<Record<string, unknown>>): void {
  for (const name of ['display_name', 'event_name'] as const) {
    checkNotEmpty(params[name], name)
    checkLength(params[name], name, MAX[name])
  }
  for (const parent of ['customer_mapping', 'value_settings'] as const) {
    const key = (params[parent] as { event_payload_key?: unknown } | undefined)?.event_payload_key
    const param = `${parent}[event_payload_key]`
    checkNotEmpty(key, param)
    checkLength(key, param, MAX.event_payload_key)
  }
}

/** The meter a path names (404 otherwise), as stored. */
function meterOf(engine: Engine, call: OperationCall): Meter {
  return engine.resource(METER_OBJECT).require(call.scope, call.path.id ?? '') as unknown as Meter
}

/** Deactivates or reactivates a meter; a meter already in that state is answered unchanged. */
function setStatus(engine: Engine, call: OperationCall, status: Meter['status']): Meter {
  const meter = meterOf(engine, call)
  if (meter.status === status) return meter
  const now = engine.now()
  return engine
    .resource(METER_OBJECT)
    .set(
      call.scope,
      meter.id,
      { status, status_transitions: { deactivated_at: status === 'inactive' ? now : null }, updated: now },
      call.origin,
    ) as unknown as Meter
}

/**
 * Billing meters (`billing.meter`): stored once, as the API shows them, by the engine. Create
 * defaults the payload keys (the customer key follows the header prefix) and refuses a second
 * meter for an event name; deactivate and reactivate move `status`; event summaries read the
 * processed aggregates.
 */
export const billingMeters: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.Meter',
  object: 'billing.meter',
  idPrefix: 'mtr',
  touch: ['updated'],
  defaults: () => ({ status: 'active' }),
  behaviours: {
    'billing.meters.create'(call, _next, { engine, ports }) {
      const { metering } = ports
      checkCreate(call.params)
      const existing = metering.meters.byEventName(call.scope, String(call.params.event_name))
      if (existing !== undefined) {
        throw tableError('meter_event_name_taken', { event_name: existing.event_name, id: existing.id }, { param: 'event_name' })
      }
      const params = {
        customer_mapping: { event_payload_key: metering.customerKey, type: 'by_id' },
        value_settings: { event_payload_key: DEFAULT_VALUE_PAYLOAD_KEY },
        ...call.params,
      }
      return engine.resource(METER_OBJECT).create(call.scope, params, call.origin, {}, metering.meterId(call.scope.mode))
    },
    'billing.meters.update'(call, next) {
      checkNotEmpty(call.params.display_name, 'display_name')
      checkLength(call.params.display_name, 'display_name', MAX.display_name)
      return next()
    },
    'billing.meters.deactivate': (call, _next, { engine }) => setStatus(engine, call, 'inactive'),
    'billing.meters.reactivate': (call, _next, { engine }) => setStatus(engine, call, 'active'),
    'billing.meters.listEventSummaries'(call, _next, { engine, ports }) {
      const meter = meterOf(engine, call)
      const data = eventSummaries(meter, ports.metering.meterEvents, call.params as unknown as SummaryQuery)
      return pageV1(data, call.params, `/v1/billing/meters/${meter.id}/event_summaries`, 'billing.meter_event_summary')
    },
  },
}
