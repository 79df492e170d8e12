import type { VersionChange } from '../change.js'

type Obj = Record<string, unknown>

/**
 * 2022-11-15 replaced a payment intent's `charges` list with `latest_charge`, and stopped
 * answering a charge's `refunds` unless expanded. Walked back, the list is rebuilt from the latest
 * charge (the simulator makes one charge per attempt that succeeds) and refunds are listed again,
 * as the charge holds them.
 *
 * @example
 * CHARGES_LIST.back?.payment_intent?.(intent, ctx) // intent.charges = { object: 'list', data: [charge] }
 */
export const CHARGES_LIST: VersionChange = {
  version: '2022-11-15',
  description: 'payment_intent.charges replaced by latest_charge; charge.refunds no longer expanded',
  withheld: { charge: ['refunds'] },
  back: {
    payment_intent(o, ctx) {
      const latest = o.latest_charge
      const id = typeof latest === 'string' ? latest : (latest as { id?: string } | null)?.id
      const charge = id === undefined ? undefined : typeof latest === 'object' && latest !== null ? (latest as Obj) : ctx.find(id)
      const data = charge === undefined ? [] : [ctx.render(charge)]
      o.charges = {
        object: 'list',
        data,
        has_more: false,
        total_count: data.length,
        url: `/v1/charges?payment_intent=${String(o.id)}`,
      }
    },
    charge(o, ctx) {
      if (o.refunds !== undefined) return
      o.refunds = refundsOf(o, ctx.find)
    },
  },
}

/** A charge's `refunds` list as the charge stores it (an answer's charge has had it withheld). */
function refundsOf(charge: Obj, find: (id: string) => Obj | undefined): unknown {
  const stored = typeof charge.id === 'string' ? find(charge.id) : undefined
  return (
    stored?.refunds ?? {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/charges/${String(charge.id)}/refunds`,
    }
  )
}
