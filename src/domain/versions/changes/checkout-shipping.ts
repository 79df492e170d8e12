import type { VersionChange } from '../change.js'

type Obj = Record<string, unknown>

/**
 * 2022-08-01 renamed a Checkout Session's `shipping` to `shipping_details` and replaced its
 * `shipping_rate` with `shipping_cost` (whose `shipping_rate` names the rate). Walked back, the
 * details the customer gave are `shipping` again and the rate is named at the top: the session of
 * then had no `shipping_details`. Basil's move of the details into `collected_information` is walked
 * back first (see `BASIL_BILLING`), so this reads them where that version had them.
 *
 * @example
 * CHECKOUT_SHIPPING.back?.['checkout.session']?.(session, ctx) // session.shipping = { name, address }; no shipping_details
 */
export const CHECKOUT_SHIPPING: VersionChange = {
  version: '2022-08-01',
  description: 'checkout.session shipping renamed shipping_details; shipping_rate replaced by shipping_cost',
  back: {
    'checkout.session'(o) {
      o.shipping = o.shipping_details ?? null
      delete o.shipping_details
      const cost = o.shipping_cost as Obj | null | undefined
      o.shipping_rate = typeof cost?.shipping_rate === 'string' ? cost.shipping_rate : null
      delete o.shipping_cost
    },
  },
}
