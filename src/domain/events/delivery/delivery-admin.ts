import { errorMessage } from '#catalogue/errors.js'
import type { Service } from '../../service.js'
import type { Destination } from '../destinations/destination.js'
import type { StoredEvent } from '../event.js'
import type { SyncOutcome } from './delivery.js'
import type { DeliveryAttempt, DeliveryRecord } from './delivery-record.js'
import { type EventBusEntry, eventBusOf } from './event-bus.js'
import type { DeliveryFaults } from './receiver-failures.js'
import { refuseTrigger, type TriggerOverrides } from './trigger.js'

/**
 * `sim.admin` methods for events and webhook delivery: triggering events, inspecting every
 * delivery, resending, rolling secrets, simulating a bad certificate and the fault knobs.
 *
 * @example
 * const evt = sim.admin.trigger('payment_intent.succeeded', { synthetic: true })
 * await sim.settle()
 * sim.admin.deliveries({ event: evt.id }) // [{ status: 'Delivered', attempts: [...] }]
 */
export interface DeliveryAdmin {
  /**
   * Creates a generated event of any type (an object built from the catalogue's type, naming no
   * stored object) and delivers it; `sim.admin.trigger` gives it with `synthetic: true` or a body.
   */
  trigger(type: string, overrides?: TriggerOverrides): StoredEvent
  /** Triggers a synchronous event (e.g. `issuing_authorization.request`) and waits for the receivers' answer. */
  triggerSync(type: string, overrides?: TriggerOverrides): Promise<SyncOutcome>
  /** Every delivery (event x destination): status, attempts, next attempt time. */
  deliveries(filter?: { event?: string; destination?: string; status?: DeliveryRecord['status'] }): DeliveryRecord[]
  /** Manual resend: `dashboard` (default, 15 days) or `cli` (30 days). Does not cancel automatic retries. */
  resend(eventId: string, destinationId: string, options?: { via?: 'dashboard' | 'cli' }): Promise<DeliveryAttempt>
  /** Rolls a destination's signing secret; the old one stays valid `overlapMs` (at most 24 h). */
  rollSecret(destinationId: string, options?: { overlapMs?: number }): string
  /**
   * Sends a test ping (`v2.core.event_destination.ping`) to one destination, enabled or not, as
   * an attempt of its own: no other destination receives it.
   *
   * @example
   * sim.admin.pingDestination('we_1').type // 'v2.core.event_destination.ping'
   */
  pingDestination(destinationId: string): StoredEvent
  /** Signing secrets currently active for a destination, newest first. */
  signingSecrets(destinationId: string): string[]
  /** Makes a destination present an invalid TLS certificate (every attempt fails with a TLS error). */
  setBadCertificate(destinationId: string, bad?: boolean): void
  /**
   * The events put on an `amazon_eventbridge` destination's virtual event bus, oldest first, each
   * with its detail as the destination's payload kind and version render it.
   */
  eventBus(destinationId: string): EventBusEntry[]
  /** Destinations not deleted, in creation order. */
  destinations(): readonly Destination[]
  /** The live delivery fault knobs (duplicates, reordering, redundant events). */
  readonly deliveryFaults: DeliveryFaults
}

export function createDeliveryAdmin(service: Service): DeliveryAdmin {
  const { destinations, delivery, kernel } = service
  const find = (id: string): Destination => {
    const d = destinations.find(id)
    if (d === undefined) throw new TypeError(errorMessage('resource_missing', { kind: 'event destination', id }))
    return d
  }
  return {
    trigger(type, overrides) {
      refuseTrigger(type, overrides, service.accounts)
      kernel.trace.append('admin.trigger', { type })
      return service.trigger(type, overrides)
    },
    async triggerSync(type, overrides) {
      refuseTrigger(type, overrides, service.accounts)
      kernel.trace.append('admin.trigger', { type, synchronous: true })
      const event = service.trigger(type, overrides)
      return delivery.deliverSync(event)
    },
    deliveries: (filter) => delivery.records(filter),
    resend: (eventId, destinationId, options = {}) => delivery.resend(eventId, destinationId, options?.via ?? 'dashboard'),
    rollSecret(id, options = {}) {
      const d = find(id)
      return destinations.rollSecret({ account: d.account, mode: d.mode }, id, options.overlapMs ?? 0)
    },
    pingDestination(id) {
      const d = find(id)
      return delivery.ping({ account: d.account, mode: d.mode }, id)
    },
    signingSecrets: (id) => destinations.activeSecrets(find(id)),
    setBadCertificate: (id, bad = true) => destinations.setBadCertificate(id, bad),
    eventBus(id) {
      const d = find(id)
      if (d.type !== 'amazon_eventbridge') {
        throw new TypeError(`eventBus: destination '${id}' is a ${d.type} destination, not amazon_eventbridge`)
      }
      return eventBusOf(service, d)
    },
    destinations: () => destinations.all(),
    deliveryFaults: delivery.faults,
  }
}
