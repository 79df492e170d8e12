import type { VersionChange } from '../change.js'

/**
 * 2022-08-01 changed the default `customer_creation` of a Checkout Session in `payment` mode from
 * `always` to `if_required`: before it, a payment made a customer unless told otherwise. A session
 * created at an older version without the parameter is read as asking for one.
 *
 * @example
 * const params = { mode: 'payment' }
 * CUSTOMER_CREATION.forward?.['checkout.sessions.create']?.(params, {}) // params.customer_creation === 'always'
 */
export const CUSTOMER_CREATION: VersionChange = {
  version: '2022-08-01',
  description: 'checkout.session customer_creation defaults to if_required in payment mode (was always)',
  meaning: true,
  forward: {
    'checkout.sessions.create'(params) {
      if (params.mode === 'payment' && params.customer_creation === undefined && params.customer === undefined) {
        params.customer_creation = 'always'
      }
    },
  },
}
