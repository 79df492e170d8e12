import type { VersionChange } from '../change.js'

/**
 * 2024-04-10 made `automatic_async` the default `capture_method` of a payment intent (the capture
 * happens in the background); before it the default was `automatic`. A payment intent created at
 * an older version without the parameter is read as asking for `automatic`.
 *
 * @example
 * const params = { amount: 2000, currency: 'usd' }
 * ASYNC_CAPTURE.forward?.['paymentIntents.create']?.(params, {}) // params.capture_method === 'automatic'
 */
export const ASYNC_CAPTURE: VersionChange = {
  version: '2024-04-10',
  description: 'payment_intent capture_method defaults to automatic_async (was automatic)',
  meaning: true,
  forward: {
    'paymentIntents.create'(params) {
      if (params.capture_method === undefined) params.capture_method = 'automatic'
    },
  },
}
