import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { StoredEvent } from '../events/event.js'
import type { EventStore } from '../events/event-store.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'

/** Subscriptions whose products' features the customer is entitled to. */
const ENTITLING = new Set(['active', 'trialing'])

const idOf = (x: unknown) => (typeof x === 'string' ? x : String((x as Json | null)?.id))

/**
 * Active entitlements that follow a customer's subscriptions: one per feature attached to a product
 * of an active or trialing subscription's items. They are stored (with the customer they belong
 * to, a field the answers leave out) so they keep their ids; every subscription event brings them
 * up to date and, when the set changed, emits `entitlements.active_entitlement_summary.updated`.
 *
 * @example
 * const entitlements = new Entitlements(engine, events)
 * entitlements.sync(scope, 'cus_1', origin) // true when the customer's entitlements changed
 */
export class Entitlements {
  readonly #engine: Engine
  readonly #events: EventStore
  constructor(engine: Engine, events: EventStore) {
    this.#engine = engine
    this.#events = events
  }

  /** Brings a customer's active entitlements up to date; true when they changed (and the summary event was emitted). */
  sync(scope: Scope, customer: string, origin: Origin): boolean {
    const want = wanted(this.#engine, scope, customer)
    const have = this.#stored(scope, customer)
    if (want.size === 0 && have.length === 0) return false
    const store = this.#engine.resource('entitlements.active_entitlement')
    let changed = false
    for (const e of have) {
      if (want.has(String(e.feature))) continue
      store.delete(scope, e.id, origin)
      changed = true
    }
    const kept = new Set(have.map((e) => String(e.feature)))
    for (const [id, feature] of want) {
      if (kept.has(id)) continue
      store.create(scope, {}, origin, { feature: id, lookup_key: feature.lookup_key, customer })
      changed = true
    }
    if (!changed) return false
    const summary = {
      object: 'entitlements.active_entitlement_summary',
      customer,
      entitlements: {
        object: 'list',
        data: this.of(scope, customer),
        has_more: false,
        url: '/v1/customer/entitlement_summary/entitlements',
      },
      livemode: scope.mode === 'live',
    }
    emitSnapshot(this.#events, 'entitlements.active_entitlement_summary.updated', scope, summary, origin)
    return true
  }

  /**
   * Hears a subscription event (`customer.subscription.*`, which billing filters for, so other
   * events never build it): every change of a subscription may change its customer's entitlements.
   */
  subscriptionChanged(event: StoredEvent): void {
    const customer = (event.body.data as { object?: { customer?: unknown } } | undefined)?.object?.customer
    if (typeof customer !== 'string') return
    this.sync({ account: event.account, mode: event.mode }, customer, NO_ORIGIN)
  }

  /** The customer's active entitlements as answered, oldest first. */
  of(scope: Scope, customer: string): Json[] {
    return this.#stored(scope, customer).map(answer)
  }

  /** An active entitlement as the provider answers it (without the customer it is kept under). */
  answer(e: Json): Json {
    return answer(e)
  }

  /** Customers with a subscription to a product, whose entitlements a change of its features moves. */
  customersOf(scope: Scope, product: string): string[] {
    const engine = this.#engine
    const subs = new Set<string>()
    for (const item of engine.resource('subscription_item').list(scope)) {
      const price = engine.resource('price').get(scope, idOf(item.price))
      if (price !== undefined && idOf(price.product) === product) subs.add(String(item.subscription))
    }
    const out = new Set<string>()
    for (const id of subs) {
      const sub = engine.resource('subscription').get(scope, id)
      if (sub !== undefined) out.add(String(sub.customer))
    }
    return [...out].sort()
  }

  /** The customer's stored active entitlements, oldest first. */
  #stored(scope: Scope, customer: string): Json[] {
    return this.#engine
      .resource('entitlements.active_entitlement')
      .list(scope)
      .filter((e) => e.customer === customer)
      .reverse()
  }
}

/**
 * Billing's entitlements.
 *
 * @example
 * const entitlements = createEntitlements(ctx)
 * entitlements.of(scope, 'cus_1') // the customer's active entitlements
 */
export function createEntitlements(ctx: BillingContext): Entitlements {
  return new Entitlements(ctx.engine, ctx.events)
}

/** The features a customer's entitling subscriptions give, by feature id. */
function wanted(engine: Engine, scope: Scope, customer: string): Map<string, Json> {
  const products = new Set<string>()
  const subs = engine.resource('subscription').list(scope)
  const items = engine.resource('subscription_item').list(scope)
  for (const sub of subs) {
    if (sub.customer !== customer || !ENTITLING.has(String(sub.status))) continue
    for (const item of items) {
      if (item.subscription !== sub.id) continue
      const price = engine.resource('price').get(scope, idOf(item.price))
      if (price !== undefined) products.add(idOf(price.product))
    }
  }
  const out = new Map<string, Json>()
  for (const pf of engine.resource('product_feature').list(scope)) {
    if (!products.has(String(pf.product))) continue
    const feature = engine.resource('entitlements.feature').get(scope, idOf(pf.entitlement_feature))
    if (feature !== undefined && feature.active !== false) out.set(feature.id, feature)
  }
  return out
}

/** An active entitlement as the provider answers it (without the customer it is kept under). */
function answer(e: Json): Json {
  const { customer: _customer, ...rest } = e
  return rest as Json
}
