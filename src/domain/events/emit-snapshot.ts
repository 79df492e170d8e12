import type { Scope } from '../mode.js'
import type { EventStore } from './event-store.js'

/** The request that caused a change, as the provider records it on `event.request`. */
export interface Origin {
  readonly requestId: string | null
  readonly idempotencyKey: string | null
}

/** No request caused it (an admin call or an internal process). */
export const NO_ORIGIN: Origin = { requestId: null, idempotencyKey: null }

/**
 * Emits one v1 snapshot event for a change in `scope`, with `data.object` as it is now (copied,
 * unless `sealed`: an object that is never changed in place is held as it is).
 *
 * @example
 * emitSnapshot(service.events, 'customer.created', scope, customerJson(c), origin)
 */
export function emitSnapshot(
  events: EventStore,
  type: string,
  scope: Scope,
  object: Record<string, unknown>,
  origin: Origin,
  previousAttributes?: Record<string, unknown>,
  sealed = false,
): void {
  events.snapshot({
    type,
    account: scope.account,
    mode: scope.mode,
    object,
    sealed,
    previousAttributes,
    request: { id: origin.requestId, idempotency_key: origin.idempotencyKey },
  })
}
