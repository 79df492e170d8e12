/**
 * The version edge: the service speaks the current version inside; a request pinned to an older
 * one is walked forward here before its params are checked, and its answer walked back before it is
 * sent (`#domain/versions/`). At the current version none of this runs.
 *
 * @example
 * checkServedVersion('2021-01-01', 'Stripe-Version') // throws 400 "Invalid Stripe API version: 2021-01-01"
 */
import { operation, typeShape } from '#catalogue/index.js'
import { CURRENT_VERSION, isServedVersion, walksBack } from '#catalogue/versions.js'
import { expandPaths } from '#domain/engine/expand.js'
import type { Scope } from '#domain/mode.js'
import type { Service } from '#domain/service.js'
import { tableError } from '#domain/service-error.js'
import { intentInvoices } from '#domain/versions/intent-invoices.js'
import { needsWalk, renderAt } from '#domain/versions/render-at.js'

export { needsWalk }

import { requestAt } from '#domain/versions/request-at.js'
import { isSealedAnswer, sealedAnswer } from '#kernel/sealed.js'
import { checkExpandAt } from './expand-at-version.js'
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
): { params: Record<string, unknown>; deferred: readonly string[]; aside: Record<string, unknown> } {
  const op = operation(name)
  const expandableNow = (path: string): boolean => {
    // An operation the catalogue lacks (one only older versions had) answers in the current shape:
    // a path naming a field the walk restores is expanded on the walked answer.
    if (op === undefined) return false
    try {
      checkExpand(op, [path], typeShape)
      return true
    } catch {
      return false
    }
  }
  const walked = requestAt(name, op?.params, params, version, expandableNow)
  // The paths left to expand on the current answer must name fields the pinned version had.
  if (op !== undefined && walksBack(version)) checkExpandAt(op, expandPaths(walked.params), typeShape, version)
  return walked
}

/**
 * An answer of the current version rendered at `version`, reading other objects of the scope.
 *
 * @example
 * answerAt(service, scope, invoice, '2022-08-01', []) // invoice with payment_intent, paid, subscription
 */
export function answerAt(service: Service, scope: Scope, answer: unknown, version: string, deferred: readonly string[]): unknown {
  const find = (id: string) => service.engine.find(scope, id)
  const invoicesNow = () => intentInvoices(() => service.engine.resource('invoice_payment').list(scope))
  if (answer === null || typeof answer !== 'object' || deferred.length > 0 || !isSealedAnswer(answer)) {
    return renderAt(answer, version, find, deferred, invoicesNow())
  }
  // A retrieve answers the same sealed object again and again: its walk is kept while the objects
  // it read are the same ones (the engine replaces an object on every change) and the invoices it
  // asked about pay the same intents (an invoice payment made later names an intent anew), and the
  // walked copy is marked so its text is made once too, as the current version's answer is.
  let byVersion = walked.get(answer)
  const hit = byVersion?.get(version)
  if (hit?.reads.every(([id, seen]) => find(id) === seen)) {
    const invoiceOf = hit.asked.length === 0 ? undefined : invoicesNow()
    if (invoiceOf === undefined || hit.asked.every(([pi, seen]) => invoiceOf(pi) === seen)) return hit.result
  }
  const reads: Array<[string, unknown]> = []
  const asked: Array<[string, string | null]> = []
  const invoiceOf = invoicesNow()
  const result = renderAt(
    answer,
    version,
    (id) => {
      const found = find(id)
      reads.push([id, found])
      return found
    },
    [],
    (pi) => {
      const seen = invoiceOf(pi)
      asked.push([pi, seen])
      return seen
    },
  )
  if (result !== null && typeof result === 'object') {
    if (byVersion === undefined) {
      byVersion = new Map()
      walked.set(answer, byVersion)
    }
    byVersion.set(version, { result: sealedAnswer(result), reads, asked })
  }
  return result
}

interface Walked {
  readonly result: unknown
  readonly reads: ReadonlyArray<[string, unknown]>
  readonly asked: ReadonlyArray<[string, string | null]>
}

const walked = new WeakMap<object, Map<string, Walked>>()
