import type { ResourceDeclaration } from '../engine/declaration.js'

/** Coupons: a caller may choose the id; `duration` defaults to `once`. */
export const coupons: ResourceDeclaration = {
  type: 'Coupon',
  object: 'coupon',
  idPrefix: 'coupon',
  idLength: 8,
  callerId: true,
  defaults: () => ({ duration: 'once', valid: true }),
}
