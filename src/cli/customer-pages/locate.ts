import type { Json } from '#domain/engine/list.js'
import type { Mode, Scope } from '#domain/mode.js'
import type { Simulator } from '../../simulator/create-simulator.js'

/** An object found by id, with whose it is. */
export interface Located {
  readonly scope: Scope
  readonly object: Json
}

const MODES: readonly Mode[] = ['test', 'live']

/**
 * Finds an object by id in any account and mode: a hosted page's URL names the object, not whose
 * it is (the provider's pages know it from the token).
 *
 * @example
 * locate(sim, 'in_1')?.scope // { account: 'acct_…', mode: 'test' }
 */
export function locate(sim: Simulator, id: string, object?: string): Located | undefined {
  for (const account of sim.admin.accounts()) {
    for (const mode of MODES) {
      if (!account.modes.has(mode)) continue
      const scope = { account: account.id, mode }
      const found = sim.service.engine.find(scope, id)
      if (found !== undefined && (object === undefined || found.object === object)) return { scope, object: found as Json }
    }
  }
  return undefined
}

/**
 * Finds a stored object of a kind by a field's value (a payment link by its `url`).
 *
 * @example
 * locateBy(sim, 'payment_link', 'url', 'https://buy.stripe.com/test_…')?.object.id // 'plink_…'
 */
export function locateBy(sim: Simulator, object: string, field: string, value: unknown): Located | undefined {
  for (const account of sim.admin.accounts()) {
    for (const mode of MODES) {
      if (!account.modes.has(mode)) continue
      const scope = { account: account.id, mode }
      const found = sim.service.engine
        .resource(object)
        .list(scope)
        .find((o) => o[field] === value)
      if (found !== undefined) return { scope, object: found }
    }
  }
  return undefined
}
