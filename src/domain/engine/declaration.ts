import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { Engine } from './engine.js'
import type { Json } from './list.js'

/** What an engine operation does to its resource. */
export type Verb = 'create' | 'retrieve' | 'update' | 'delete' | 'list' | 'search'

/** One call of an operation, as plain data (no HTTP). */
export interface OperationCall {
  readonly scope: Scope
  readonly origin: Origin
  /** Path placeholders by name (`{ customer: 'cus_1', id: 'txi_1' }`). */
  readonly path: Readonly<Record<string, string>>
  /** The decoded (and validated) body, or the query of a GET. */
  readonly params: Readonly<Record<string, unknown>>
  /** The request in flight, for behaviours that hold a key while it lasts (one meter event call per customer and meter). */
  readonly flight?: InFlightRequest
  /** The API version the request's version header named, absent when it sent none (ephemeral keys require one). */
  readonly versionHeader?: string
  /**
   * Values of an older API version's params the current params have no place for, set aside by
   * the version walk (`#domain/versions/change.js`): a legacy price's `aggregate_usage`.
   */
  readonly aside?: Readonly<Record<string, unknown>>
  /**
   * Prices an object made inline (`price_data`, so inactive) that a call made on its behalf may
   * still use: the subscription a checkout session, a quote or a schedule's phase starts.
   */
  readonly heldPrices?: readonly string[]
}

/**
 * How the HTTP edge serves an operation beyond its verb and path: the meter event stream takes a
 * session token (`auth: 'session'`) and checks its events by hand (`checksOwn`).
 */
export interface OperationTraits {
  readonly auth?: 'session'
  /** Top-level params the behaviour checks itself, with codes of its own: the catalogue check accepts any value there. */
  readonly checksOwn?: readonly string[]
}

/**
 * Code for an operation where the service has behaviour. It receives the call and `next`, which
 * runs the engine's own operation (with other params if given), so a behaviour adds checks and
 * effects around the engine instead of re-implementing it.
 *
 * @example
 * const create: Behaviour = (call, next) => {
 *   check(call.params)            // refuse before any change
 *   const created = next()        // the engine creates, stores, emits `*.created`
 *   attachSomething(created)      // effects after
 *   return created
 * }
 */
export type Behaviour<P = unknown> = (
  call: OperationCall,
  next: (params?: Readonly<Record<string, unknown>>, fixed?: Fixed) => unknown,
  env: BehaviourEnv<P>,
) => unknown

/**
 * The value of an includable field (one the provider answers only when `expand[]` names it,
 * `customer.subscriptions`), computed from the state when it is asked for.
 *
 * @example
 * const taxIds: Includer = (customer, { engine, scope }) =>
 *   engine.resource('tax_id').list(scope).filter((t) => t.customer === customer.id)
 */
export type Includer<P = unknown> = (object: Json, env: IncludeEnv<P>) => unknown

/** What an includer may read: a behaviour's environment and the request's scope. */
export interface IncludeEnv<P = unknown> extends BehaviourEnv<P> {
  readonly scope: Scope
}

/** Fields a create sets after params: values, or computed from the new object (its id). */
export type Fixed = Readonly<Record<string, unknown>> | ((created: Json) => Readonly<Record<string, unknown>>)

/** What a behaviour may use: the engine (other resources, events) and the service's ports. */
export interface BehaviourEnv<P = unknown> {
  readonly engine: Engine
  readonly ports: P
}

/** What a declaration's `defaults` may read: the new object's id, time, mode and params. */
export interface DefaultsContext {
  readonly id: string
  /** Unix seconds. */
  readonly created: number
  readonly livemode: boolean
  readonly scope: Scope
  readonly params: Readonly<Record<string, unknown>>
}

/**
 * A resource the engine serves: its catalogue object type, id prefix and the few facts the
 * catalogue cannot say (documented defaults, event types, deletion style). Fields are spelled by
 * the catalogue, never here, except where a field has a real default.
 *
 * @example
 * export const coupons: ResourceDeclaration = {
 *   type: 'Coupon', object: 'coupon', idPrefix: 'coupon',
 *   defaults: () => ({ valid: true, duration: 'once' }),
 * }
 */
export interface ResourceDeclaration<P = any> {
  /** The catalogue's object type name (`Customer`, `Checkout.Session`). */
  readonly type: string
  /** The `object` value (`customer`, `checkout.session`). */
  readonly object: string
  /**
   * The resource in refusals (`No such event destination: 'ed_1'`), where the provider names it
   * otherwise than by its `object` value; defaults to `object`.
   */
  readonly noun?: string
  /** Id prefix without `_` (`cus`); the random part is `idLength` characters (default 24). */
  readonly idPrefix: string
  /** Other prefixes its ids may have (a charge's `py_` for payments by a method that is not a card). */
  readonly otherPrefixes?: readonly string[]
  readonly idLength?: number
  /**
   * Events are `<eventPrefix>.created|updated|deleted`, emitted where the catalogue has that event
   * type; `eventPrefix` defaults to `object` (`customer.subscription` for subscriptions).
   */
  readonly eventPrefix?: string
  /** Documented defaults of a new object, over the catalogue's (applied before params). */
  readonly defaults?: (ctx: DefaultsContext) => Readonly<Record<string, unknown>>
  /** After deletion: `gone` (404 afterwards, the default) or `stub` (retrieve answers `{ id, object, deleted: true }`). */
  readonly deleted?: 'gone' | 'stub'
  /** Fields refreshed to the current time on every update and left out of `previous_attributes` (`updated`). */
  readonly touch?: readonly string[]
  /** True when create takes a caller-chosen `id` (products, plans, coupons). */
  readonly callerId?: boolean
  /** The engine verbs served (default all the catalogue has); others answer 501 unless a behaviour serves them. */
  readonly only?: readonly Verb[]
  /**
   * Includable fields whose values follow from other objects (`subscriptions` of a customer). An
   * includable field without one answers what the object holds, else the empty value of its type.
   */
  readonly includes?: Readonly<Record<string, Includer<P>>>
  /**
   * Includable fields the object stores (they follow from its own params, a price's `tiers`) but
   * answers only when `expand[]` names them, as the provider does; a dotted name withholds a field
   * inside the object (`restrictions.currency_options`).
   */
  readonly withheld?: readonly string[]
  /**
   * Fields that follow from the object's other fields (a subscription item's `plan` from its
   * `price`), set again after every create and change.
   */
  readonly derive?: (object: Json) => Readonly<Record<string, unknown>>
  /**
   * Ids that name no stored object but that a parameter naming this resource accepts (test tokens
   * such as `pm_card_visa`): the engine's reference check lets them through to the behaviour.
   */
  readonly tokens?: (id: string) => boolean
  /** Objects that are answered but not kept (account links, account sessions: no id to fetch them by). */
  readonly ephemeral?: true
  /**
   * Behaviours by operation name (`customers.create`): they wrap the engine's operation. A
   * behaviour for an operation that is not a CRUD verb (`setupIntents.confirm`) serves it alone.
   */
  readonly behaviours?: Readonly<Record<string, Behaviour<P>>>
  /**
   * Made from catalogue data for a type nobody declared by hand (`engine/generic.ts`): its
   * lists under other names (`creditNotes.listLineItems` at `/lines`) are served as lists too.
   */
  readonly generic?: true
  /** Edge traits by operation name (`v2.billing.meterEventStream.create`: session auth). */
  readonly traits?: Readonly<Record<string, OperationTraits>>
}
