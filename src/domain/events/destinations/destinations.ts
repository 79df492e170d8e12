import { errorMessage } from '#catalogue/errors.js'
import { MAX_WEBHOOK_ENDPOINTS, SECRET_ROLL_MAX_OVERLAP_MS } from '#catalogue/rules.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Accounts } from '../../connect/accounts.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Resource } from '../../engine/resource.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Scope } from '../../mode.js'
import { invalidRequest, tableError } from '../../service-error.js'
import { NO_ORIGIN } from '../emit-snapshot.js'
import {
  DESTINATION_OBJECT,
  type Destination,
  type DestinationKeys,
  ENDPOINT_OBJECT,
  type EventsFrom,
  ORGANISATION_SCOPES,
  viewOf,
} from './destination.js'
import { checkEnabledEvents, checkUrl } from './destination-rules.js'
import { endpointViewOf } from './endpoint-view.js'

/**
 * At most this many webhook endpoints per account and mode (the spec's limit).
 *
 * @example
 * resource.list(scope).length >= MAX_ENDPOINTS // a 17th is refused
 */
export const MAX_ENDPOINTS = MAX_WEBHOOK_ENDPOINTS
/**
 * A rolled secret stays valid at most this long.
 *
 * @example
 * rollSecret(scope, id, MAX_ROLL_OVERLAP_MS) // the old secret stays 24 hours
 */
export const MAX_ROLL_OVERLAP_MS = SECRET_ROLL_MAX_OVERLAP_MS
export { DESTINATION_OBJECT } from './destination.js'

/**
 * A destination as created outside HTTP (the CLI's forwarding, the harness): the create params.
 *
 * @example
 * sim.service.destinations.create(scope, { name: 'h', type: 'webhook_endpoint', event_payload: 'snapshot', enabled_events: ['*'], webhook_endpoint: { url } })
 */
export interface CreateDestinationInput {
  name: string
  type: 'webhook_endpoint'
  event_payload: 'snapshot' | 'thin'
  enabled_events: string[]
  events_from?: EventsFrom[] | undefined
  description?: string | undefined
  metadata?: Record<string, string> | undefined
  snapshot_api_version?: string | undefined
  webhook_endpoint: { url: string }
}

/**
 * Event destinations: the rules of the spec on their registration (checked before anything
 * changes, so a refused call leaves everything as it was), their keys (owner, signing secrets,
 * certificate fault) and the views delivery routes by. The objects themselves are the engine's
 * (`v2.core.event_destination`), stored once as the API shows them.
 *
 * @example
 * const d = destinations.create(scope, { name: 'h', type: 'webhook_endpoint', event_payload: 'thin',
 *   enabled_events: ['v1.billing.meter.error_report_triggered'], webhook_endpoint: { url } })
 * destinations.activeSecrets(d) // ['whsec_…']
 */
export interface Destinations {
  /** Creates one through the engine's create operation (its behaviour checks the rules). */
  create(scope: Scope, input: CreateDestinationInput): Destination
  /** A destination of the scope, else 404 `resource_missing`. */
  get(scope: Scope, id: string): Destination
  /** Any destination by id (undefined once deleted). */
  find(id: string): Destination | undefined
  /** Live v2 destinations of a scope, newest first (v1 endpoints are listed by their own API). */
  list(scope: Scope): Destination[]
  /** Every destination not deleted, v1 endpoints included, in creation order. */
  all(): readonly Destination[]
  /** Refuses a create that breaks a registration rule (scopes, types, URL, version, the 16 cap). */
  checkCreate(scope: Scope, params: Readonly<Record<string, unknown>>): void
  /** Refuses an update of `enabled_events` or the URL that breaks a rule. */
  checkUpdate(scope: Scope, id: string, params: Readonly<Record<string, unknown>>): void
  /** Refuses a v1 endpoint's URL that breaks a rule and, on a create, a 17th endpoint of either kind. */
  checkEndpoint(scope: Scope, params: Readonly<Record<string, unknown>>, creating: boolean): void
  /**
   * Keys for a new destination (or, given `endpoint`, a v1 webhook endpoint): its first secret,
   * drawn here from the seeded ids. Returns the secret.
   */
  register(created: Json, scope: Scope, endpoint?: { connect: boolean }): string
  /** Forgets a deleted destination's keys. */
  unregister(id: string): void
  /** Traces a change of a destination (`destination.updated`, ...). */
  traced(id: string, what: 'created' | 'updated' | 'deleted' | 'enabled' | 'disabled'): void
  /** Rolls the signing secret; the old one stays valid for `overlapMs` (0..24h). Returns the new secret. */
  rollSecret(scope: Scope, id: string, overlapMs: number): string
  /** Secrets that sign a delivery now, newest first. */
  activeSecrets(destination: Destination): string[]
  /** Marks a destination as presenting a bad TLS certificate (or fixes it). */
  setBadCertificate(id: string, bad: boolean): void
}

/**
 * The destinations of a service; `engine` is read when first needed (the engine is made after).
 *
 * @example
 * const destinations = createDestinations(kernel, accounts, () => engine)
 */
export function createDestinations(kernel: Kernel, accounts: Accounts, engine: () => Engine): Destinations {
  return new DestinationRegistry(kernel, accounts, engine)
}

type Traced = 'created' | 'updated' | 'deleted' | 'enabled' | 'disabled' | 'secret_rolled'

/** The keys of a service's destinations, in creation order, and the views of their objects. */
class DestinationRegistry implements Destinations {
  readonly #kernel: Kernel
  readonly #accounts: Accounts
  readonly #engine: () => Engine
  readonly #byId = new Map<string, DestinationKeys>()
  readonly #ordered: DestinationKeys[] = []
  readonly #views = new WeakMap<Json, Destination>()

  constructor(kernel: Kernel, accounts: Accounts, engine: () => Engine) {
    this.#kernel = kernel
    this.#accounts = accounts
    this.#engine = engine
    const byId = this.#byId
    const ordered = this.#ordered
    kernel.state.register('destinations', {
      save() {
        return toPlain(ordered)
      },
      load(data) {
        byId.clear()
        ordered.length = 0
        for (const k of fromPlain<DestinationKeys[]>(data)) {
          byId.set(k.id, k)
          ordered.push(k)
        }
      },
    })
  }

  create(scope: Scope, input: CreateDestinationInput): Destination {
    const created = this.#engine().run('v2.core.eventDestinations.create', {
      scope,
      origin: NO_ORIGIN,
      path: {},
      params: input as unknown as Record<string, unknown>,
    }) as Json
    return this.#view(this.#byId.get(created.id) as DestinationKeys) as Destination
  }

  get(scope: Scope, id: string): Destination {
    return this.#view(this.#keysOf(scope, id)) as Destination
  }

  find(id: string): Destination | undefined {
    const k = this.#byId.get(id)
    return k === undefined ? undefined : this.#view(k)
  }

  list(scope: Scope): Destination[] {
    return this.#engine()
      .resource(DESTINATION_OBJECT)
      .list(scope)
      .flatMap((json) => {
        const k = this.#byId.get(json.id)
        return k === undefined ? [] : [this.#view(k) as Destination]
      })
  }

  all(): readonly Destination[] {
    return this.#ordered.map((k) => this.#view(k) as Destination)
  }

  checkCreate(scope: Scope, params: Readonly<Record<string, unknown>>): void {
    checkCreate(this.#accounts, scope, params)
    this.#checkCap(scope, 'webhook_endpoint')
  }

  checkEndpoint(scope: Scope, params: Readonly<Record<string, unknown>>, creating: boolean): void {
    if (typeof params.url === 'string') checkUrl(params.url, scope.mode, 'url')
    if (creating) this.#checkCap(scope)
  }

  checkUpdate(scope: Scope, id: string, params: Readonly<Record<string, unknown>>): void {
    const current = this.#view(this.#keysOf(scope, id)) as Destination
    if (Array.isArray(params.enabled_events)) {
      const organisation = current.eventsFrom.some((s) => ORGANISATION_SCOPES.includes(s))
      checkEnabledEvents(params.enabled_events as string[], current.eventPayload, organisation, 'enabled_events')
    }
    const endpoint = params.webhook_endpoint as { url?: string } | undefined
    if (endpoint?.url !== undefined) checkUrl(endpoint.url, current.mode, 'webhook_endpoint.url')
  }

  register(created: Json, scope: Scope, endpoint?: { connect: boolean }): string {
    const k: DestinationKeys = {
      id: created.id,
      ...(endpoint === undefined ? {} : { object: ENDPOINT_OBJECT, connect: endpoint.connect }),
      account: scope.account,
      mode: scope.mode,
      secrets: [{ secret: this.#newSecret(), expiresAt: undefined }],
      badCertificate: false,
    }
    this.#byId.set(k.id, k)
    this.#ordered.push(k)
    this.#trace(k, 'created')
    return k.secrets[0]?.secret as string
  }

  unregister(id: string): void {
    const k = this.#byId.get(id)
    if (k === undefined) return
    this.#byId.delete(id)
    this.#ordered.splice(this.#ordered.indexOf(k), 1)
    this.#kernel.trace.append('destination.deleted', { id, account: k.account, mode: k.mode, status: 'deleted' })
  }

  traced(id: string, what: 'created' | 'updated' | 'deleted' | 'enabled' | 'disabled'): void {
    const k = this.#byId.get(id)
    if (k !== undefined) this.#trace(k, what)
  }

  rollSecret(scope: Scope, id: string, overlapMs: number): string {
    const k = this.#keysOf(scope, id)
    if (!Number.isFinite(overlapMs) || overlapMs < 0 || overlapMs > MAX_ROLL_OVERLAP_MS) {
      throw invalidRequest('The old secret can stay active for 0 to 24 hours (expires_in 0..86400 seconds).', {
        param: 'expires_in',
      })
    }
    const now = this.#kernel.clock.now
    const secret = this.#newSecret()
    const old = k.secrets.filter((s) => s.expiresAt === undefined || s.expiresAt > now)
    k.secrets = [
      { secret, expiresAt: undefined },
      ...old.map((s) => ({ secret: s.secret, expiresAt: Math.min(s.expiresAt ?? Infinity, now + overlapMs) })),
    ].filter((s) => s.expiresAt === undefined || s.expiresAt > now)
    this.#trace(k, 'secret_rolled')
    return secret
  }

  activeSecrets(d: Destination): string[] {
    const now = this.#kernel.clock.now
    return d.secrets.filter((s) => s.expiresAt === undefined || s.expiresAt > now).map((s) => s.secret)
  }

  setBadCertificate(id: string, bad: boolean): void {
    const k = this.#byId.get(id)
    if (k === undefined) throw new TypeError(errorMessage('resource_missing', { kind: 'event destination', id }))
    k.badCertificate = bad
    this.#kernel.trace.append('destination.bad_certificate', { id, bad })
  }

  // Each destination (so each endpoint and each mode) draws its own secret.
  #newSecret(): string {
    return this.#kernel.ids.next('whsec', 32)
  }

  #resourceOf(k: Pick<DestinationKeys, 'object'>): Resource {
    return this.#engine().resource(k.object ?? DESTINATION_OBJECT)
  }

  // One cap across both kinds: the spec counts endpoints, however they were made.
  #checkCap(scope: Scope, param?: string): void {
    const count = this.#ordered.filter((k) => k.account === scope.account && k.mode === scope.mode).length
    if (count >= MAX_ENDPOINTS) {
      throw tableError(
        'webhook_endpoint_limit_reached',
        { max: MAX_ENDPOINTS, mode: scope.mode },
        param === undefined ? {} : { param },
      )
    }
  }

  #view(keys: DestinationKeys): Destination | undefined {
    const json = this.#resourceOf(keys).get(keys, keys.id)
    if (json === undefined) return undefined
    let v = this.#views.get(json)
    if (v === undefined) {
      v = keys.object === ENDPOINT_OBJECT ? endpointViewOf(json, keys) : viewOf(json, keys)
      this.#views.set(json, v)
    }
    return v
  }

  #keysOf(scope: Scope, id: string): DestinationKeys {
    const k = this.#byId.get(id)
    if (k === undefined || k.account !== scope.account || k.mode !== scope.mode) {
      this.#resourceOf(k ?? {}).require(scope, id)
      throw new Error(`destinations: no keys for ${id}`)
    }
    return k
  }

  #trace(k: DestinationKeys, what: Traced): void {
    const status = (this.#resourceOf(k).get(k, k.id)?.status ?? 'enabled') as string
    this.#kernel.trace.append(`destination.${what}` as const, { id: k.id, account: k.account, mode: k.mode, status })
  }
}

/** The registration rules of a create, in the order the provider checks them. */
function checkCreate(accounts: Accounts, scope: Scope, params: Readonly<Record<string, unknown>>): void {
  const eventsFrom = (params.events_from ?? ['@self']) as EventsFrom[]
  const payload = params.event_payload as 'snapshot' | 'thin'
  const organisation = eventsFrom.some((s) => ORGANISATION_SCOPES.includes(s))
  if (organisation && accounts.get(scope.account)?.organisation === undefined) {
    throw invalidRequest(
      `events_from ${eventsFrom.join(', ')} needs an account that belongs to an organisation; account '${scope.account}' does not.`,
      { param: 'events_from' },
    )
  }
  checkEnabledEvents(params.enabled_events as string[], payload, organisation, 'enabled_events')
  if (params.type === 'webhook_endpoint') {
    checkUrl((params.webhook_endpoint as { url: string }).url, scope.mode, 'webhook_endpoint.url')
  }
  if (params.snapshot_api_version !== undefined && payload === 'thin') {
    throw invalidRequest('snapshot_api_version can only be set on destinations with event_payload snapshot.', {
      param: 'snapshot_api_version',
    })
  }
}
