import type { Scope } from '../../mode.js'
import type { Service } from '../../service.js'

/**
 * What a retired operation's behaviour sees: the params as its version sent them, and a way to run
 * a current operation (its params checked as that operation's), so an operation the current
 * client no longer declares is served by the same code as the one that replaced it.
 *
 * @example
 * const upcoming: RetiredBehaviour = (call) => call.run('invoices.createPreview', { customer: call.params.customer })
 */
export interface RetiredCall {
  readonly service: Service
  readonly scope: Scope
  /** The version the request is answered at (at or before the operation's last version). */
  readonly version: string
  /** Path parameters by the names of the retired operation's path (`subscription_item`). */
  readonly path: Readonly<Record<string, string>>
  readonly params: Readonly<Record<string, unknown>>
  run(operation: string, params: Record<string, unknown>): unknown
}

/**
 * A retired operation served at the versions that had it.
 *
 * @example
 * const behaviour: RetiredBehaviour = (call) => ({ object: 'list', data: [], has_more: false, url: '/v1/x' })
 */
export type RetiredBehaviour = (call: RetiredCall) => unknown
