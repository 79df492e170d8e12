import { z } from 'zod'
import { errorMessage } from '#catalogue/errors.js'
import type { Scope } from '#domain/mode.js'
import type { Origin } from '#domain/v1-events/emit.js'
import { formInt } from '../params.js'
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

/**
 * A form string that `''` clears (to `null`) on update, as the provider's form API does (the
 * catalogue check already turns `''` into `null` where the client declares `Emptyable<string>`).
 */
export const clearable = z
  .string()
  .nullable()
  .transform((v) => (v === '' ? null : v))

/** A plausible email address (the provider refuses obviously malformed ones). */
export const email = z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: 'Invalid email address' })

/**
 * Metadata as the domain takes it: `''` or `null` (clear all) becomes `null`.
 *
 * @example
 * metadataInput('') // null
 */
export function metadataInput(m: '' | Record<string, string> | null | undefined): Record<string, string> | null | undefined {
  return m === '' ? null : m
}

/** Drops `undefined` members, so optional inputs are absent rather than undefined. */
export function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never
}

/**
 * A required form integer whose absence is `parameter_missing` (a bare union would report it as
 * invalid).
 *
 * @example
 * z.object({ amount: requiredInt('amount') })
 */
export function requiredInt(name: string) {
  return z
    .unknown()
    .superRefine((v, ctx) => {
      if (v === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: errorMessage('parameter_missing', { param: name }),
          params: { code: 'parameter_missing' },
        })
      }
    })
    .pipe(formInt)
}
