import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'

/**
 * Application fees: what a platform collects on a Connect payment (`application_fee_amount`), made
 * by the payment (see `connect-charges.ts`) in the platform's scope, so a connected account never
 * lists them. Listed (by `charge`, `created`) and retrieved by the engine.
 *
 * @example
 * engine.run('applicationFees.retrieve', { scope, origin, path: { id: 'fee_1' }, params: {} })
 * // { id: 'fee_1', object: 'application_fee', account: 'acct_1', amount: 200, charge: 'ch_1', refunded: false, ... }
 */
export const applicationFees: ResourceDeclaration<ResourcePorts> = {
  type: 'ApplicationFee',
  object: 'application_fee',
  noun: 'application fee',
  idPrefix: 'fee',
}
