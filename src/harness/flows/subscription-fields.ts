import { refuseArgument } from '../refuse-argument.js'
/** What a subscription mirror keeps of each subscription: the fields an access gate decides on. */
export interface MirroredSubscription {
  readonly customer: string
  readonly status: string
  /** Price of the first item. */
  readonly price: string
  /** Quantity of the first item. */
  readonly quantity: number
  /** End of the current period (Unix seconds), from the first item (where current API versions keep it). */
  readonly currentPeriodEnd: number | null
  readonly cancelAtPeriodEnd: boolean
}

type Json = Record<string, unknown>

/** The fields a mirror is compared on (`customer` is where the subscription belongs, not what changes). */
const COMPARED: readonly (keyof MirroredSubscription)[] = ['status', 'price', 'quantity', 'currentPeriodEnd', 'cancelAtPeriodEnd']

/**
 * The fields a mirrored copy holds differently from the provider's, in a fixed order (none: it
 * converged).
 *
 * @example
 * mirrorDifferences(copy, mirroredFields(providerSub)) // ['quantity']
 */
export function mirrorDifferences(mirror: MirroredSubscription, provider: MirroredSubscription): (keyof MirroredSubscription)[] {
  return COMPARED.filter((f) => mirror[f] !== provider[f])
}

/**
 * The mirrored fields of a subscription object (as an event's `data.object` or `GET
 * /v1/subscriptions/{id}` has it).
 *
 * @example
 * mirroredFields(event.data.object) // { customer: 'cus_1', status: 'active', price: 'price_1', quantity: 2, ... }
 */
export function mirroredFields(sub: Json): MirroredSubscription {
  refuseArgument('mirroredFields', 'sub', sub, 'object')
  const item = ((sub.items as { data?: Json[] } | undefined)?.data ?? [])[0] ?? {}
  const price = item.price as Json | string | undefined
  const end = item.current_period_end ?? sub.current_period_end
  return {
    customer: String(sub.customer),
    status: String(sub.status),
    price: typeof price === 'string' ? price : String(price?.id ?? ''),
    quantity: Number(item.quantity ?? 0),
    currentPeriodEnd: typeof end === 'number' ? end : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
  }
}

/**
 * A mirrored copy as one comparable text of the fields a mirror is compared on, as a forged
 * delivery's claim and the provider's copy are read beside the app's (`status active,
 * cancelAtPeriodEnd true, ...`).
 *
 * @example
 * mirrorState(mirroredFields(event.data.object)) === mirrorState(copy[id]) // the app holds what it claims
 */
export function mirrorState(m: MirroredSubscription): string {
  return COMPARED.map((f) => `${f} ${m[f]}`).join(', ')
}

/** Statuses that entitle a customer to the product. */
export const ENTITLED_STATUSES: readonly string[] = ['active', 'trialing']
