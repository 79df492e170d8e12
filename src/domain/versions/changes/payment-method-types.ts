import type { VersionChange } from '../change.js'

const rename = (params: Record<string, unknown>): void => {
  if (params.payment_method_types !== undefined && params.allowed_payment_method_types === undefined) {
    params.allowed_payment_method_types = params.payment_method_types
  }
  delete params.payment_method_types
}

/**
 * 2026-09-30.endive renamed the `payment_method_types` parameter of payment intents, setup intents
 * and checkout sessions to `allowed_payment_method_types` (the answer's `payment_method_types`
 * stayed). A request of before it is read with the new name.
 *
 * @example
 * const params = { payment_method_types: ['card'] }
 * PAYMENT_METHOD_TYPES.forward?.['paymentIntents.create']?.(params) // params.allowed_payment_method_types: ['card']
 */
export const PAYMENT_METHOD_TYPES: VersionChange = {
  version: '2026-09-30.endive',
  description: 'payment_method_types parameter renamed allowed_payment_method_types',
  forward: {
    'paymentIntents.create': rename,
    'paymentIntents.update': rename,
    'setupIntents.create': rename,
    'setupIntents.update': rename,
    'checkout.sessions.create': rename,
  },
}
