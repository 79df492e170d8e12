import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../engine/apply-params.js'
import { checkLength, checkNotEmpty } from '../engine/checks.js'
import type { OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest } from '../service-error.js'
import { meterEventObject } from './meter-event-objects.js'
import type { MeterEventInput } from './meter-event-types.js'
import { MAX_IDENTIFIER_LENGTH, parseIsoTimestamp } from './stream-body.js'

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })

/** The checks both versions share: a named event, an identifier of 1 to 100 characters, a payload map. */
function commonInput(call: OperationCall): Omit<MeterEventInput, 'timestamp'> {
  const { event_name: eventName, identifier, payload } = call.params
  checkNotEmpty(eventName, 'event_name')
  checkLength(eventName, 'event_name', 100)
  checkNotEmpty(identifier, 'identifier')
  checkLength(identifier, 'identifier', MAX_IDENTIFIER_LENGTH)
  if (!isPlainObject(payload)) throw invalid('payload', 'expected a map of keys to values')
  return { event_name: String(eventName), payload, identifier: identifier as string | undefined }
}

/** The v2 timestamp: an ISO 8601 time with a zone, as epoch ms. */
function isoParam(value: unknown): number | undefined {
  if (value === undefined) return undefined
  const ms = typeof value === 'string' ? parseIsoTimestamp(value) : Number.NaN
  if (Number.isNaN(ms)) throw invalid('timestamp', 'expected an ISO 8601 timestamp such as 2026-01-01T00:00:00.000Z')
  return ms
}

/**
 * `POST /v2/billing/meter_events`: validated at once against the meter (the spec's error table,
 * one call per customer and meter at a time), processed later; answered as a
 * `v2.billing.meter_event`. Nothing is kept to retrieve: the provider has no retrieve.
 */
export const meterEventsV2: ResourceDeclaration<ResourcePorts> = {
  type: 'V2.Billing.MeterEvent',
  object: 'v2.billing.meter_event',
  idPrefix: 'mev',
  ephemeral: true,
  // No engine verb: the behaviour below is the whole operation.
  only: [],
  behaviours: {
    'v2.billing.meterEvents.create'(call, _next, { ports }) {
      const input = { ...commonInput(call), timestamp: isoParam(call.params.timestamp) }
      return meterEventObject(ports.metering.meterEvents.create(call.scope, input, call.flight), true)
    },
  },
}

/**
 * `POST /v1/billing/meter_events`: the v1 synchronous path (form body, unix-second times), with the
 * same rules and codes as v2; its payload values are judged by the meter's rules
 * (`payload_invalid_value`), so the catalogue check leaves them to it.
 */
export const meterEventsV1: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.MeterEvent',
  object: 'billing.meter_event',
  idPrefix: 'mev',
  ephemeral: true,
  only: [],
  traits: { 'billing.meterEvents.create': { checksOwn: ['payload'] } },
  behaviours: {
    'billing.meterEvents.create'(call, _next, { ports }) {
      const seconds = call.params.timestamp
      const input = { ...commonInput(call), timestamp: seconds === undefined ? undefined : Number(seconds) * 1000 }
      return meterEventObject(ports.metering.meterEvents.create(call.scope, input, call.flight), false)
    },
  },
}
