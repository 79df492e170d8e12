import type { ResourceDeclaration } from '../engine/declaration.js'

/** Transfers (plain: no balance movement yet). */
export const transfers: ResourceDeclaration = {
  type: 'Transfer',
  object: 'transfer',
  idPrefix: 'tr',
}
