import type { VersionChange } from '../change.js'

/**
 * 2022-11-15 replaced a payment intent's `charges` list with `latest_charge`, and stopped
 * expanding a charge's `refunds` by default. Walked back, the list is rebuilt from the latest
 * charge (the simulator makes one charge per attempt that succeeds) and refunds stay listed.
 *
 * @example
 * CHARGES_LIST.back?.payment_intent?.(intent, ctx) // intent.charges = { object: 'list', data: [charge] }
 */
export const CHARGES_LIST: VersionChange = {
  version: '2022-11-15',
  description: 'payment_intent.charges replaced by latest_charge; charge.refunds no longer expanded',
  back: {
    payment_intent(o, ctx) {
      const latest = o.latest_charge
      const id = typeof latest === 'string' ? latest : (latest as { id?: string } | null)?.id
      const charge =
        id === undefined
          ? undefined
          : typeof latest === 'object' && latest !== null
            ? (latest as Record<string, unknown>)
            : ctx.find(id)
      const data = charge === undefined ? [] : [ctx.render(charge)]
      o.charges = {
        object: 'list',
        data,
        has_more: false,
        total_count: data.length,
        url: `/v1/charges?payment_intent=${String(o.id)}`,
      }
    },
    charge(o) {
      if (o.refunds === undefined) {
        o.refunds = { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${String(o.id)}/refunds` }
      }
    },
  },
}
