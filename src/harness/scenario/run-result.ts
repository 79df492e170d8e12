import type { FaultKind } from '#faults/index.js'

/** One request the run sent, and how it ended. */
export interface RequestRecord {
  readonly step: number
  readonly at: number
  readonly method: string
  readonly path: string
  readonly status: number
  /** `200`, `401 billing_meter_event_session_expired`, `429 global-rate`, `429 lock_timeout`, ... */
  readonly outcome: string
  readonly code?: string | undefined
  readonly reason?: string | undefined
  readonly requestId?: string | undefined
  /** Who sent it: the workload, or a client action. */
  readonly source: string
}

/** One executed step. */
export interface StepRecord {
  readonly n: number
  readonly at: number
  readonly end: number
  readonly kind: string
  readonly label: string
  readonly ok: boolean
  readonly note?: string | undefined
}

/** One fault decision of the fault engine: which fault fired during which step, and what it acted on. */
export interface FaultDecision {
  readonly step: number
  readonly at: number
  readonly fault: FaultKind
  /** `schedule`: the explicit schedule; `policy`: drawn from a rate; `inject`: `sim.admin.injectFault`. */
  readonly source: 'schedule' | 'policy' | 'inject'
  /** False when the fault found nothing to act on (an outside kind with no receiver, no delivery to replay). */
  readonly applied: boolean
  readonly note: string
  readonly params: Readonly<Record<string, unknown>>
}

/** One delivery attempt seen by a receiver mounted by the run. */
export interface DeliveryRecord {
  readonly at: number
  readonly receiver: string
  readonly eventId: string | null
  readonly type: string | null
  /** Status the receiver answered, or 0 when it was down without a status (connection refused). */
  readonly status: number
  /** Nth attempt this receiver saw for this event id (1 = first). */
  readonly attempt: number
  readonly signature: 'valid' | 'invalid' | 'unchecked'
  /** An attacker's re-POST of an old signed delivery (`replay_delivery`), not a delivery of the service. */
  readonly replay?: boolean | undefined
  /** The event's `created` (seconds), when the body has one. */
  readonly created?: number | undefined
}

/** A point of interest read from the trace (session expiries, service-side delivery records). */
export interface Marker {
  readonly at: number
  readonly kind: string
  readonly detail: string
}

/** The verdict of one expectation or checker; `witness` shows why it failed. */
export interface Verdict {
  readonly name: string
  readonly ok: boolean
  readonly message: string
  readonly witness?: unknown
}

/** Everything a run produced; the report is built from it. */
export interface RunResult {
  readonly scenario: string
  readonly description: string
  readonly seed: string
  readonly start: number
  readonly end: number
  readonly steps: readonly StepRecord[]
  readonly requests: readonly RequestRecord[]
  readonly faults: readonly FaultDecision[]
  readonly deliveries: readonly DeliveryRecord[]
  readonly markers: readonly Marker[]
  readonly verdicts: readonly Verdict[]
  readonly traceHash: string
  readonly traceLength: number
  readonly ok: boolean
  /** A flow run's (event type, object state, fault, deploy) combinations (`FlowReport.coverage`). */
  readonly coverage?: readonly string[]
}
