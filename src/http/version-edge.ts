/**
 * The version edge: the service speaks the current version inside; a request pinned to an older
 * one is walked forward here before its params are checked, and its answer walked back before it is
 * sent (`#domain/versions/`). At the current version none of this runs.
 *
 * @example
 * checkServedVersion('2021-01-01', 'Stripe-Version') // throws 400 "Invalid Stripe API version: 2021-01-01"
 */
import { operation, typeShape } from '#catalogue/index.js'
import { CURRENT_VERSION, isServedVersion } from '#catalogue/versions.js'
import type { Scope } from '#domain/mode.js'
import type { Service } from '#domain/service.js'
import { tableError } from '#domain/service-error.js'
import { needsWalk, renderAt } from '#domain/versions/render-at.js'

export { needsWalk }

import { requestAt } from '#domain/versions/request-at.js'
import { checkExpand } from './expand-paths.js'

/**
 * Refuses a well-formed version the service does not serve, naming it as the provider does.
 *
 * @example
 * checkServedVersion('2022-08-01', 'Stripe-Version') // passes
 */
export function checkServedVersion(version: string, header: string): void {
  if (version === CURRENT_VERSION || isServedVersion(version)) return
  throw tableError('api_version_unknown', { brand: header.replace(/-Version$/i, ''), value: version }, { param: header })
}

/**
 * A request's params at an older version, read as current ones; `deferred` expand paths are handed
 * to {@link answerAt}.
 *
 * @example
 * const { params, deferred } = requestParamsAt('subscriptions.create', '2022-08-01', body)
 */
export function requestParamsAt(
  name: string,
  version: string,
  params: Record<string, unknown>,
): { params: Record<string, unknown>; deferred: readonly string[] } {
  const op = operation(name)
  const expandableNow = (path: string): boolean => {
    if (op === undefined) return true
    try {
      checkExpand(op, [path], typeShape)
      return true
    } catch {
      return false
    }
  }
  return requestAt(name, op?.params, params, version, expandableNow)
}

/**
 * An answer of the current version rendered at `version`, reading other objects of the scope.
 *
 * @example
 * answerAt(service, scope, invoice, '2022-08-01', []) // invoice with payment_intent, paid, subscription
 */
export function answerAt(service: Service, scope: Scope, answer: unknown, version: string, deferred: readonly string[]): unknown {
  return renderAt(answer, version, (id) => service.engine.find(scope, id), deferred)
}
