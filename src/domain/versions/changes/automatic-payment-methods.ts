import type { VersionChange } from '../change.js'

type Obj = Record<string, unknown>

/** Neither a list of types nor `automatic_payment_methods`: the older default was cards only. */
function cardsOnly(params: Obj): void {
  const named = params.payment_method_types ?? params.allowed_payment_method_types ?? params.automatic_payment_methods
  if (named === undefined) params.payment_method_types = ['card']
}

/**
 * 2023-08-16 turned `automatic_payment_methods` on by default for payment intents and setup
 * intents made without `payment_method_types`; before it they accepted cards only. A request of an
 * older version naming neither is read as naming `card` (the rename of the parameter, later, then
 * applies to it as to any other).
 *
 * @example
 * const params = { amount: 2000, currency: 'usd' }
 * AUTOMATIC_PAYMENT_METHODS.forward?.['paymentIntents.create']?.(params, {}) // params.payment_method_types: ['card']
 */
export const AUTOMATIC_PAYMENT_METHODS: VersionChange = {
  version: '2023-08-16',
  description: 'automatic_payment_methods enabled by default on payment and setup intents (was cards only)',
  meaning: true,
  forward: {
    'paymentIntents.create': cardsOnly,
    'setupIntents.create': cardsOnly,
  },
}
