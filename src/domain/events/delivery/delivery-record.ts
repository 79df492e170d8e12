/** How one attempt ended, per the spec's failure table (`http_error`: a 3xx, 4xx or 5xx answer). */
export type AttemptOutcome = 'delivered' | 'http_error' | 'connect_error' | 'tls_error' | 'timeout'

/** What started an attempt. */
export type AttemptTrigger = 'automatic' | 'retry' | 'dashboard' | 'cli' | 'duplicate' | 'synchronous' | 'ping'

/** One POST to a destination. */
export interface DeliveryAttempt {
  /** Virtual epoch ms the attempt started. */
  readonly at: number
  readonly trigger: AttemptTrigger
  readonly outcome: AttemptOutcome
  /** HTTP status of the answer; null for connection, TLS and time-out failures. */
  readonly status: number | null
  /** Virtual milliseconds between sending and the answer (or the failure). */
  readonly durationMs: number
  readonly message?: string
}

/** The spec's delivery statuses. */
export type DeliveryStatus = 'Delivered' | 'Pending' | 'Failed'

/**
 * The delivery of one event to one destination: its status, every attempt and the time of the
 * next automatic attempt (null when none is scheduled).
 *
 * @example
 * sim.admin.deliveries({ event: evt.id })[0] // { status: 'Pending', attempts: [...], nextAttemptAt: ... }
 */
export interface DeliveryRecord {
  readonly eventId: string
  readonly eventType: string
  readonly destinationId: string
  readonly url: string
  readonly mode: 'test' | 'live'
  status: DeliveryStatus
  readonly attempts: DeliveryAttempt[]
  nextAttemptAt: number | null
  /** Automatic retries scheduled so far (the first attempt is not a retry). */
  retries: number
  firstAttemptAt: number | undefined
  /** False for organisation destinations of types whose answer cannot influence the outcome. */
  readonly influencesOutcome: boolean
  /** Why automatic delivery stopped early, e.g. `destination_disabled`. */
  cancelled: string | undefined
}
