import { z } from 'zod'
import type { FaultKind } from './faults-schema.js'

/**
 * The kinds a fault's `after` applies to: the request kinds armed for the next matching requests
 * (`indeterminate` counts the matching requests answered 2xx, the others those admitted).
 *
 * @example
 * AFTER_KINDS.has('server_error') // true
 */
export const AFTER_KINDS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'rate_limit',
  'lock_timeout',
  'concurrent_conflict',
  'server_error',
  'indeterminate',
])

/** Most matching requests a fault may let through: larger is a slip (a timestamp, a size), a fault that would never fire. */
export const MAX_FAULT_AFTER = 1_000_000

/**
 * The refusal of a fault's `after`, or `undefined`: a whole number of requests from 0 to
 * `MAX_FAULT_AFTER`, on a request kind (a delivery, receiver or session fault has no requests to let
 * through).
 *
 * @example
 * faultAfterRefusal('duplicate_delivery', 1)
 * // "applies to request faults only (rate_limit, lock_timeout, concurrent_conflict, server_error, indeterminate), not 'duplicate_delivery'"
 */
export function faultAfterRefusal(kind: FaultKind, after: unknown): string | undefined {
  if (after === undefined) return undefined
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0 || after > MAX_FAULT_AFTER)
    return `must be a whole number of matching requests to let through, 0..${MAX_FAULT_AFTER}, got ${typeof after === 'number' ? after : (JSON.stringify(after) ?? typeof after)}`
  if (!AFTER_KINDS.has(kind)) return `applies to request faults only (${[...AFTER_KINDS].join(', ')}), not '${kind}'`
  return undefined
}

/**
 * Refuses, as a zod issue at `path`, an `after` on a kind that has no requests to let through.
 *
 * @example
 * schema.superRefine((e, ctx) => checkAfter(e.fault, e.after, ctx, ['after']))
 * @internal
 */
export function checkAfter(kind: FaultKind, after: number | undefined, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  const refusal = faultAfterRefusal(kind, after)
  if (refusal !== undefined) ctx.addIssue({ code: 'custom', message: refusal, path })
}

/**
 * The schema of a fault's `after` as a number (its kind is checked with the entry, `checkAfter`).
 *
 * @example
 * afterSchema().parse(2) // 2
 * @internal
 */
export function afterSchema() {
  return z
    .number({ error: 'must be a whole number of matching requests to let through' })
    .int({ error: 'must be a whole number of matching requests to let through' })
    .min(0, { error: 'must be 0 or more (the matching requests let through before the fault fires)' })
    .max(MAX_FAULT_AFTER, {
      error: `must be at most ${MAX_FAULT_AFTER}: a fault that lets more requests through would never fire`,
    })
    .meta({
      description:
        'Request faults (rate_limit, lock_timeout, concurrent_conflict, server_error, indeterminate): how many matching requests pass before the fault fires (default 0: the next one). A handler whose first API call succeeds and whose second fails.',
    })
}
