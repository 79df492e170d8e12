import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from './ports.js'

/**
 * Charges: made by the card attempts of payment intents and off-session payments
 * (`ports.charges.attempt`), never by a request, so `create` is not served; retrieve, update, list
 * and search are the engine's. A charge carries its refunds (`refunds`, newest first) and the
 * amounts and balance transaction its capture and refunds set.
 */
export const charges: ResourceDeclaration<ResourcePorts> = {
  type: 'Charge',
  object: 'charge',
  idPrefix: 'ch',
  only: ['retrieve', 'update', 'list', 'search'],
}
