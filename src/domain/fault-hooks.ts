import type { InFlightRequest } from '#kernel/request-timeline.js'

/**
 * The port through which injected faults reach the service. The domain and the HTTP layer are
 * given it at construction (`createService(..., { faults })`, `createFetchHandler({ dropAnswer })`)
 * by the composition root (`src/simulator`), which takes it from the fault engine (`src/faults`);
 * there is no registry, and the domain never imports the fault engine. Refusals (forced 429s, lock
 * timeouts, 409s, 5xx) need no hook: they are an admission gate in `service.gates`.
 *
 * @example
 * const service = createService(kernel, timeline, { defaultVersion, faults: { dropAnswer: () => false, processingDelay: () => 60_000 } })
 * // meter events now wait a minute longer
 */
export interface FaultHooks {
  /**
   * Called once a request has been answered (and committed). True: the client gets a network error
   * instead of the answer (an indeterminate outcome).
   */
  dropAnswer(flight: InFlightRequest, status: number): boolean
  /** Extra virtual milliseconds before one accepted meter event (or batch) is processed. */
  processingDelay(): number
  /**
   * Asked once per (event, destination) as the first attempt is scheduled: send it `delayMs` later
   * and/or a second time (duplicate). Optional so hooks written before it stay valid.
   */
  deliveryFault?(detail: DeliveryFaultHookDetail): DeliveryFaultHookDecision
  /**
   * Asked once per new event as it fans out (never for a twin): whether the service also emits a
   * second, distinct event for the same change.
   */
  redundantEvent?(detail: RedundantEventHookDetail): boolean
}

/**
 * The new event a redundant-event decision is asked about.
 *
 * @example
 * hooks.redundantEvent = (d) => d.type === 'customer.subscription.created'
 */
export interface RedundantEventHookDetail {
  readonly event: string
  /** Event type, so a schedule entry's `operation` can aim at one type. */
  readonly type: string
}

/**
 * The automatic delivery attempt a fault decision is asked about: the first (`attempt` 1, asked
 * as the event fans out) and each retry (asked as it is scheduled).
 *
 * @example
 * hooks.deliveryFault = (d) => ({ duplicate: d.attempt === 1, delayMs: 0, fail: d.type === 'invoice.paid' })
 */
export interface DeliveryFaultHookDetail {
  readonly event: string
  readonly destination: string
  /** Event type, so a schedule entry's `operation` can aim at one type. */
  readonly type?: string
  /** 1 for the first attempt, 2, 3, ... for the retries. Absent: 1. */
  readonly attempt?: number
}

/**
 * What a scheduled or injected delivery fault does to one delivery attempt.
 *
 * @example
 * const decision: DeliveryFaultHookDecision = { duplicate: false, delayMs: 3_000, slowMs: 2_000 }
 */
export interface DeliveryFaultHookDecision {
  /** Also sent a second time (trigger `duplicate`). */
  readonly duplicate: boolean
  /** Virtual ms the attempt waits before it is sent. */
  readonly delayMs: number
  /** The receiver cannot be reached for this attempt: `connect_error`, nothing is sent. */
  readonly fail?: boolean
  /** Virtual ms the network adds before the receiver gets the request (counts toward the time-out). */
  readonly slowMs?: number
}

/** The hooks of a simulation without faults: nothing happens. */
export const noFaultHooks: FaultHooks = { dropAnswer: () => false, processingDelay: () => 0 }
