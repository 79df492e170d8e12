import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { ResourcePorts } from '../../resource-ports.js'

/**
 * Early fraud warnings: raised by the issuer on a payment with the provider's early-fraud-warning
 * test card (`ports.disputes`), never by a request; retrieve and list (filters `charge`,
 * `payment_intent`) are the engine's.
 *
 * @example
 * await stripe.radar.earlyFraudWarnings.list({ payment_intent: 'pi_1' }) // [{ id: 'issfr_...', actionable: true, ... }]
 */
export const earlyFraudWarnings: ResourceDeclaration<ResourcePorts> = {
  type: 'Radar.EarlyFraudWarning',
  object: 'radar.early_fraud_warning',
  idPrefix: 'issfr',
  only: ['retrieve', 'list'],
}
