import type { ResourceDeclaration } from '../engine/declaration.js'

/** Payouts (plain: `pending`, no balance movement yet). */
export const payouts: ResourceDeclaration = {
  type: 'Payout',
  object: 'payout',
  idPrefix: 'po',
  defaults: ({ created }) => ({
    arrival_date: created + 2 * 24 * 60 * 60,
    method: 'standard',
    source_type: 'card',
    status: 'pending',
    type: 'bank_account',
  }),
}
