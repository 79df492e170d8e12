import type { Mode } from '../mode.js'

/**
 * One event of the service, immutable once stored. `kind` says how it is delivered: `snapshot`
 * (v1 shape, `data.object` frozen at the moment of the change) or `thin` (v2 shape, a
 * notification with a `related_object` reference). `body` is the full JSON object, built once with
 * the structure of `apiVersion` and never rebuilt, whatever version later requests carry.
 */
export interface StoredEvent {
  readonly id: string
  readonly kind: 'snapshot' | 'thin'
  readonly type: string
  /** The account whose resource changed. */
  readonly account: string
  readonly mode: Mode
  /** Virtual epoch ms of the change. */
  readonly at: number
  readonly apiVersion: string
  /** The full event object as `GET /v1/events/{id}` or `GET /v2/core/events/{id}` returns it. */
  readonly body: Readonly<Record<string, unknown>>
  /** Id of the object the event is about (`data.object.id` or `related_object.id`). */
  readonly objectId: string | undefined
  /**
   * The object in the current version's shape, kept when `body` holds it walked back to an older
   * `apiVersion` or without a field that version answers only when expanded (a charge's
   * `refunds`): a destination pinned to another version is rendered from it.
   */
  readonly current?: Readonly<Record<string, unknown>>
  /** The `previous_attributes` in the current version's shape, kept beside `current` when `body` holds them walked back. */
  readonly previous?: Readonly<Record<string, unknown>>
}

export interface EmitSnapshot {
  type: string
  account: string
  mode: Mode
  /** The object as it is now; it is deep-copied (unless sealed), so later changes do not reach the event. */
  object: Record<string, unknown>
  /** `object` is sealed (`seal`: never changed in place), so the event holds it without a copy. */
  sealed?: boolean
  previousAttributes?: Record<string, unknown>
  request?: { id: string | null; idempotency_key: string | null }
}

export interface EmitThin {
  type: string
  account: string
  mode: Mode
  relatedObject?: { id: string; type: string; url: string }
  /** The `data` of the full event (e.g. `developer_message_summary`). */
  data?: Record<string, unknown>
  reason?: Record<string, unknown>
}
