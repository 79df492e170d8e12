import { versionProblem } from '#catalogue/versions.js'
import type { Account, Organisation } from '#domain/connect/account.js'
import type { CreateAccountInput } from '#domain/connect/accounts.js'
import type { Json } from '#domain/engine/list.js'
import { createDeliveryAdmin, type DeliveryAdmin } from '#domain/events/delivery/delivery-admin.js'
import type { StoredEvent } from '#domain/events/event.js'
import type { CurrencyBalance } from '#domain/ledger/ledger.js'
import { createLimitsAdmin, type LimitsAdmin } from '#domain/limits/limits-admin.js'
import { createMeterAdmin, type MeterAdmin } from '#domain/meters/meter-admin.js'
import type { Mode, Scope } from '#domain/mode.js'
import { createPaymentIntentAdmin, type PaymentIntentAdmin } from '#domain/payments/payment-intent-admin.js'
import type { Service } from '#domain/service.js'

/** A stored object found by id or field, with whose it is. */
export interface Located {
  readonly scope: Scope
  readonly object: Json
}

const MODES: readonly Mode[] = ['test', 'live']

/** The first object `pick` finds in a scope, trying every account and mode it has in turn. */
function locateIn(service: Service, pick: (scope: Scope) => Json | undefined): Located | undefined {
  for (const account of service.accounts.list()) {
    for (const mode of MODES) {
      if (!account.modes.has(mode)) continue
      const scope = { account: account.id, mode }
      const found = pick(scope)
      if (found !== undefined) return { scope, object: found }
    }
  }
  return undefined
}

/**
 * Typed setup and inspection without HTTP. Setup calls are recorded in the trace like requests, so
 * a run that uses them is still replayable.
 *
 * @example
 * const acct = sim.admin.createAccount({ email: 'shop@example.com' })
 * sim.admin.createOrganisation({ accounts: [sim.platform.id, acct.id] })
 */
export interface Admin extends MeterAdmin, DeliveryAdmin, LimitsAdmin, PaymentIntentAdmin {
  /** Creates a connected account of the default platform (or of `platform`). */
  createAccount(input?: CreateAccountInput): Account
  account(id: string): Account | undefined
  accounts(): Account[]
  createOrganisation(input: { name?: string; accounts: string[] }): Organisation
  /** Sets an account's default API version; events emitted afterwards use it. */
  setApiVersion(account: string, version: string): void
  /** Events emitted for an account and mode, oldest first (both kinds unless `kind` is given). */
  events(filter?: { account?: string; mode?: Mode; kind?: StoredEvent['kind']; type?: string }): StoredEvent[]
  /** Ends a meter event session now. */
  expireSession(id: string): void
  /**
   * An account's balance per currency (available and pending), derived from its ledger.
   *
   * @example
   * sim.admin.balance(sim.platform.id) // [{ currency: 'usd', available: 0, pending: 1912 }]
   */
  balance(account: string, mode?: Mode): CurrencyBalance[]
  /**
   * Number of balance transactions of an account and mode created at or after `since` (virtual ms; default 0).
   *
   * @example
   * sim.admin.transactionCount(acct.id, 'live')
   */
  transactionCount(account: string, mode?: Mode, since?: number): number
  /**
   * A stored object by id (of kind `object` when given) in any account and mode, with whose it
   * is: a hosted page's URL names the object, not its account.
   *
   * @example
   * sim.admin.locate('in_1', 'invoice')?.scope // { account: 'acct_…', mode: 'test' }
   */
  locate(id: string, object?: string): Located | undefined
  /**
   * A stored object of a kind by a field's value, in any account and mode.
   *
   * @example
   * sim.admin.locateBy('payment_link', 'url', 'https://buy.stripe.com/test_…')?.object.id // 'plink_…'
   */
  locateBy(object: string, field: string, value: unknown): Located | undefined
  /**
   * A stored object by id in a scope, as the API shows it.
   *
   * @example
   * sim.admin.find({ account: sim.platform.id, mode: 'test' }, 'bpc_1')?.features
   */
  find(scope: Scope, id: string): Json | undefined
  /**
   * The stored objects of a kind in a scope, as the API shows them.
   *
   * @example
   * sim.admin.objects('subscription', { account: sim.platform.id, mode: 'test' }).length
   */
  objects(object: string, scope: Scope): Json[]
}

/** An id (or object name) that is no string fails deep in the engine: refused, naming the admin call. Answers `undefined`. */
function refuseNotId(caller: string, id: unknown, name = 'id'): undefined {
  if (typeof id !== 'string')
    throw new TypeError(`admin.${caller}: ${name} must be a string, got ${id === null ? 'null' : typeof id}`)
  return undefined
}

export function createAdmin(service: Service): Admin {
  return {
    ...createMeterAdmin(service),
    ...createDeliveryAdmin(service),
    ...createLimitsAdmin(service),
    ...createPaymentIntentAdmin(service),
    createAccount: (input = {}) => service.accounts.create({ platform: service.accounts.platform.id, ...input }),
    account: (id) => service.accounts.get(id),
    accounts: () => service.accounts.list(),
    createOrganisation: (input) => {
      if (typeof input !== 'object' || input === null || !Array.isArray(input.accounts))
        throw new TypeError("admin.createOrganisation: input must be an object { name?, accounts: ['acct_...'] }")
      return service.accounts.createOrganisation(input)
    },
    setApiVersion(id, version) {
      const account = service.accounts.get(id)
      if (account === undefined) throw new TypeError(`admin.setApiVersion: no such account '${id}'`)
      if (typeof version !== 'string') throw new TypeError(`admin.setApiVersion: version must be a string, got ${typeof version}`)
      const problem = versionProblem(version)
      if (problem !== undefined) throw new TypeError(`admin.setApiVersion: ${problem}`)
      account.apiVersion = version
      service.kernel.trace.append('account.version', { id, version })
    },
    events: (filter = {}) =>
      service.events
        .all()
        .filter(
          (e) =>
            (filter.account === undefined || e.account === filter.account) &&
            (filter.mode === undefined || e.mode === filter.mode) &&
            (filter.kind === undefined || e.kind === filter.kind) &&
            (filter.type === undefined || e.type === filter.type),
        ),
    expireSession: (id) => service.sessions.expire(id),
    balance: (account, mode = 'test') => service.ledger.balance({ account, mode }),
    transactionCount: (account, mode = 'test', since = 0) => service.ledger.transactionCount({ account, mode }, since),
    locate: (id, object) =>
      refuseNotId('locate', id) ??
      locateIn(service, (scope) => {
        const found = service.engine.find(scope, id)
        return found !== undefined && (object === undefined || found.object === object) ? (found as Json) : undefined
      }),
    locateBy: (object, field, value) =>
      refuseNotId('locateBy', object, 'object') ??
      locateIn(service, (scope) =>
        service.engine
          .resource(object)
          .list(scope)
          .find((o) => o[field] === value),
      ),
    find: (scope, id) => refuseNotId('find', id) ?? (service.engine.find(scope, id) as Json | undefined),
    objects: (object, scope) => refuseNotId('objects', object, 'object') ?? service.engine.resource(object).list(scope),
  }
}
