import type { Origin } from '#domain/events/emit-snapshot.js'
import type { Scope } from '#domain/mode.js'
import type { RequestContext } from '../route.js'

/**
 * The account and mode a request acts in: every object it touches must live in this scope.
 *
 * @example
 * const scope = scopeOf(ctx) // { account: 'acct_…', mode: 'test' }
 */
export function scopeOf(ctx: RequestContext): Scope {
  return { account: ctx.principal.account.id, mode: ctx.principal.mode }
}

/**
 * The request behind a change, for `event.request` and thin events' `reason`.
 *
 * @example
 * service.customers.create(scopeOf(ctx), input, originOf(ctx))
 */
export function originOf(ctx: RequestContext): Origin {
  return { requestId: ctx.requestId, idempotencyKey: ctx.idempotencyKey ?? null }
}
