import type { HeaderNames } from '#kernel/header-names.js'
import type { RandomStream } from '#kernel/rng.js'
import type { Accounts } from '../../connect/accounts.js'
import type { FaultHooks } from '../../fault-hooks.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Destinations } from '../destinations/destinations.js'
import type { EventStore } from '../event-store.js'
import type { DeliveryRecord } from './delivery-record.js'
import type { DeliveryTransport } from './delivery-transport.js'
import type { EventIndex } from './event-index.js'
import type { DeliveryFaults } from './receiver-failures.js'
import type { RecordBook } from './record-book.js'

/**
 * The first signed request a receiver read: what an attacker who captured traffic replays.
 *
 * @example
 * ctx.captured = { r, url, body, headers, at: clock.now }
 */
export interface CapturedRequest {
  readonly r: DeliveryRecord
  readonly url: string
  readonly body: string
  readonly headers: Record<string, string>
  readonly at: number
}

/**
 * What the modules of delivery share: the service's areas they read, the records, the event
 * index, the fault knobs, and the two values that change over a run (the transport and the
 * captured request).
 *
 * @example
 * const ctx = createDeliveryContext(kernel, events, destinations, accounts, faultHooks)
 * ctx.transport = transport
 */
export interface DeliveryContext {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly destinations: Destinations
  readonly accounts: Accounts
  readonly faultHooks: FaultHooks
  readonly names: HeaderNames
  readonly faults: DeliveryFaults
  /** The `delivery-faults` stream, taken only when a knob is on (a run without faults draws nothing). */
  readonly faultRng: () => RandomStream
  readonly retryRng: RandomStream
  readonly book: RecordBook
  readonly index: EventIndex
  transport: DeliveryTransport
  captured: CapturedRequest | undefined
}
