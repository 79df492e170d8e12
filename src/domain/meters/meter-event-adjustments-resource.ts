import { errorMessage } from '#catalogue/errors.js'
import { checkLength, checkNotEmpty } from '../engine/checks.js'
import type { OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest } from '../service-error.js'
import { adjustmentV1, adjustmentV2 } from './meter-event-objects.js'
import type { MeterEventAdjustment } from './meter-event-types.js'
import type { MeteringPorts } from './metering-ports.js'
import { MAX_IDENTIFIER_LENGTH } from './stream-body.js'

/** Cancels the event a call names (`event_name`, `cancel.identifier`); both versions take the same. */
function cancel(call: OperationCall, metering: MeteringPorts): MeterEventAdjustment {
  const eventName = call.params.event_name
  const identifier = (call.params.cancel as { identifier?: unknown } | undefined)?.identifier
  if (identifier === undefined) {
    // Optional in the client's declaration ("time period cancellation is not supported yet"), so
    // with `type: 'cancel'` the service needs it.
    throw invalidRequest(errorMessage('parameter_missing', { param: 'cancel' }), { code: 'parameter_missing', param: 'cancel' })
  }
  checkNotEmpty(eventName, 'event_name')
  checkLength(eventName, 'event_name', 100)
  checkNotEmpty(identifier, 'cancel[identifier]')
  checkLength(identifier, 'cancel[identifier]', MAX_IDENTIFIER_LENGTH)
  return metering.meterEvents.adjust(call.scope, { eventName: String(eventName), identifier: String(identifier) })
}

/** `POST /v1/billing/meter_event_adjustments`: cancel one event by identifier (v1 object). */
export const meterEventAdjustmentsV1: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.MeterEventAdjustment',
  object: 'billing.meter_event_adjustment',
  idPrefix: 'mtr_event_adj',
  ephemeral: true,
  only: [],
  behaviours: {
    'billing.meterEventAdjustments.create': (call, _next, { ports }) => adjustmentV1(cancel(call, ports.metering)),
  },
}

/** `POST /v2/billing/meter_event_adjustments`: the same cancellation, answered as a v2 object. */
export const meterEventAdjustmentsV2: ResourceDeclaration<ResourcePorts> = {
  type: 'V2.Billing.MeterEventAdjustment',
  object: 'v2.billing.meter_event_adjustment',
  idPrefix: 'mtr_event_adj',
  ephemeral: true,
  // No engine verb: the behaviour below is the whole operation.
  only: [],
  behaviours: {
    'v2.billing.meterEventAdjustments.create': (call, _next, { ports }) => adjustmentV2(cancel(call, ports.metering)),
  },
}
