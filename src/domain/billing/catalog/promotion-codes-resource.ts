import type { ResourceDeclaration } from '../../engine/declaration.js'

/** Promotion codes: `code` defaults to an upper-case form of the id. */
export const promotionCodes: ResourceDeclaration = {
  type: 'PromotionCode',
  object: 'promotion_code',
  idPrefix: 'promo',
  defaults: ({ id }) => ({ active: true, code: id.slice(6, 14).toUpperCase() }),
  // Includable: answered only when `expand[]` names it.
  withheld: ['restrictions.currency_options'],
}
