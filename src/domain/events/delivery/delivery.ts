import { headerNames } from '#kernel/header-names.js'
import type { Accounts } from '../../connect/accounts.js'
import { type FaultHooks, noFaultHooks } from '../../fault-hooks.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Scope } from '../../mode.js'
import type { Destinations } from '../destinations/destinations.js'
import type { StoredEvent } from '../event.js'
import type { EventStore } from '../event-store.js'
import { createAttemptSchedule } from './attempt-schedule.js'
import { createAttempts } from './attempts.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryAttempt, DeliveryRecord } from './delivery-record.js'
import { registerDeliveryState } from './delivery-state.js'
import { type DeliveryTransport, unreachableTransport } from './delivery-transport.js'
import { createEventIndex } from './event-index.js'
import { createFanOut } from './fan-out.js'
import { createPing } from './ping.js'
import { type DeliveryFaults, noFaults } from './receiver-failures.js'
import { createRecordBook, type DeliveryFilter } from './record-book.js'
import { createReplay } from './replay.js'
import { createResend } from './resend.js'
import { createSend } from './send.js'
import { createSynchronous, type SyncOutcome } from './synchronous.js'

export {
  DELIVERY_TIMEOUT_MS,
  PING_TYPE,
  REPLAY_MIN_AGE_MS,
  RESEND_WINDOW_MS,
  SYNC_TIMEOUT_MS,
} from './constants.js'
export { TEST_RETRY_OFFSETS_MS } from './retry-policy.js'
export type { DeliveryFilter, SyncOutcome }

/**
 * Webhook delivery: routes every new event to the destinations that take it, POSTs it signed
 * through the transport, records each attempt and schedules retries on the kernel scheduler
 * (live: exponential backoff within 3 days; test: 3 retries over about 3 hours). A retry that falls
 * due while its destination is disabled or deleted is cancelled.
 *
 * @example
 * service.delivery.useTransport(transport)
 * service.delivery.records({ event: 'evt_1' }) // [{ status: 'Pending', attempts: [...], nextAttemptAt }]
 */
export interface Delivery {
  /** Fault knobs (duplicates, reordering, redundant events); all off by default. */
  readonly faults: DeliveryFaults
  useTransport(transport: DeliveryTransport): void
  records(filter?: DeliveryFilter): DeliveryRecord[]
  record(eventId: string, destinationId: string): DeliveryRecord | undefined
  /**
   * Manual resend (dashboard: 15 days, cli: 30 days); never cancels automatic retries. Throws a
   * ServiceError at once when refused; the returned promise resolves with the attempt.
   */
  resend(eventId: string, destinationId: string, via: 'dashboard' | 'cli', scope?: Scope): Promise<DeliveryAttempt>
  /** Sends a `v2.core.event_destination.ping` event to one destination. */
  ping(scope: Scope, destinationId: string): StoredEvent
  /** Delivers a synchronous event to its destinations now and decides from their answers. */
  deliverSync(event: StoredEvent): Promise<SyncOutcome>
  /**
   * An attacker's replay: the oldest signed delivery sent so far (whose headers the receiver read)
   * is POSTed again, body and signature header unchanged, once it is `minAgeMs` old (default
   * `REPLAY_MIN_AGE_MS`). Traced as `delivery.replay`; no delivery record changes. False when
   * nothing signed was sent yet.
   */
  replay(options?: { minAgeMs?: number }): boolean
}

/**
 * Composes delivery from its modules: the records, the event index, sending (signing, the
 * time-out race, the fault kinds), the attempt schedule and retries, routing of new events,
 * resend, ping, synchronous delivery and the attacker's replay.
 *
 * @example
 * const delivery = createDelivery(kernel, events, destinations, accounts, faultHooks)
 */
export function createDelivery(
  kernel: Kernel,
  events: EventStore,
  destinations: Destinations,
  accounts: Accounts,
  faultHooks: FaultHooks = noFaultHooks,
): Delivery {
  const ctx: DeliveryContext = {
    kernel,
    events,
    destinations,
    accounts,
    faultHooks,
    names: headerNames(kernel.prefix),
    faults: noFaults(),
    faultRng() {
      return kernel.rng.stream('delivery-faults')
    },
    retryRng: kernel.rng.stream('delivery-retries'),
    book: createRecordBook(),
    index: createEventIndex(events),
    transport: unreachableTransport,
    captured: undefined,
  }
  const send = createSend(ctx)
  const attempt = createAttempts(ctx, send, () => schedule)
  const schedule = createAttemptSchedule(ctx, attempt)
  registerDeliveryState(ctx, schedule)
  events.subscribe(createFanOut(ctx, schedule))
  const replay = createReplay(ctx)
  return {
    faults: ctx.faults,
    useTransport(t) {
      ctx.transport = t
    },
    records(filter = {}) {
      return ctx.book.filter(filter)
    },
    record(eventId, destinationId) {
      return ctx.book.get(eventId, destinationId)
    },
    resend: createResend(ctx, send),
    ping: createPing(ctx, schedule),
    deliverSync: createSynchronous(ctx, send),
    replay,
  }
}
