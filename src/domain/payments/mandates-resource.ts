import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'

/**
 * Mandates: made by setup and payment intents for later off-session payments (a bank debit, or a
 * confirm with `mandate_data`; `payment-intents/mandates.ts`), never by a request; retrieve is the
 * engine's.
 *
 * @example
 * await stripe.mandates.retrieve(setupIntent.mandate as string)
 */
export const mandates: ResourceDeclaration<ResourcePorts> = {
  type: 'Mandate',
  object: 'mandate',
  idPrefix: 'mandate',
  only: ['retrieve'],
}
