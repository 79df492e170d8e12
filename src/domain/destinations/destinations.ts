import { MAX_WEBHOOK_ENDPOINTS, SECRET_ROLL_MAX_OVERLAP_MS } from '#catalogue/rules.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Accounts } from '../accounts/accounts.js'
import type { Kernel } from '../kernel.js'
import type { Scope } from '../mode.js'
import { invalidRequest, resourceMissing } from '../service-error.js'
import { type Destination, type EventsFrom, ORGANISATION_SCOPES } from './destination.js'
import { checkEnabledEvents, checkUrl } from './rules.js'

/** At most this many webhook endpoints per account and mode (the spec's limit). */
export const MAX_ENDPOINTS = MAX_WEBHOOK_ENDPOINTS
/** A rolled secret stays valid at most this long. */
export const MAX_ROLL_OVERLAP_MS = SECRET_ROLL_MAX_OVERLAP_MS

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

export interface UpdateDestinationInput {
  name?: string | undefined
  description?: string | undefined
  enabled_events?: string[] | undefined
  metadata?: Record<string, string | null> | undefined
  webhook_endpoint?: { url: string } | undefined
}

/**
 * The registry of event destinations per account and mode, with the spec's registration rules.
 * Every check runs before anything changes, so a refused call leaves the registry as it was.
 *
 * @example
 * const d = destinations.create(scope, { name: 'h', type: 'webhook_endpoint', event_payload: 'thin',
 *   enabled_events: ['v1.billing.meter.error_report_triggered'], webhook_endpoint: { url } })
 * destinations.disable(scope, d.id)
 */
export interface Destinations {
  create(scope: Scope, input: CreateDestinationInput): Destination
  get(scope: Scope, id: string): Destination
  /** Any destination by id, deleted ones included (deliveries keep a reference). */
  find(id: string): Destination | undefined
  /** Live destinations of a scope, newest first. */
  list(scope: Scope): Destination[]
  /** Every destination not deleted, in creation order. */
  all(): readonly Destination[]
  update(scope: Scope, id: string, input: UpdateDestinationInput): Destination
  remove(scope: Scope, id: string): Destination
  enable(scope: Scope, id: string): Destination
  disable(scope: Scope, id: string): Destination
  /** Rolls the signing secret; the old one stays valid for `overlapMs` (0..24h). Returns the new secret. */
  rollSecret(scope: Scope, id: string, overlapMs: number): string
  /** Secrets that sign a delivery now, newest first. */
  activeSecrets(destination: Destination): string[]
  /** Marks a destination as presenting a bad TLS certificate (or fixes it). */
  setBadCertificate(id: string, bad: boolean): void
}

export function createDestinations(kernel: Kernel, accounts: Accounts): Destinations {
  const byId = new Map<string, Destination>()
  const ordered: Destination[] = []

  kernel.state.register('destinations', {
    save: () => toPlain(ordered),
    load(data) {
      byId.clear()
      ordered.length = 0
      for (const d of fromPlain<Destination[]>(data)) {
        byId.set(d.id, d)
        ordered.push(d)
      }
    },
  })

  function get(scope: Scope, id: string): Destination {
    const d = byId.get(id)
    if (d === undefined || d.deleted || d.account !== scope.account || d.mode !== scope.mode) {
      throw resourceMissing('event destination', id)
    }
    return d
  }

  // Each destination (so each endpoint and each mode) draws its own secret.
  const newSecret = (): string => kernel.ids.next('whsec', 32)

  function touch(
    d: Destination,
    what: 'created' | 'updated' | 'deleted' | 'enabled' | 'disabled' | 'secret_rolled',
  ): Destination {
    d.updated = kernel.clock.now
    kernel.trace.append(`destination.${what}` as const, { id: d.id, account: d.account, mode: d.mode, status: d.status })
    return d
  }

  return {
    create(scope, input) {
      const eventsFrom = input.events_from ?? ['@self']
      const account = accounts.get(scope.account)
      const organisation = eventsFrom.some((s) => ORGANISATION_SCOPES.includes(s))
      if (organisation && account?.organisation === undefined) {
        throw invalidRequest(
          `events_from ${eventsFrom.join(', ')} needs an account that belongs to an organisation; account '${scope.account}' does not.`,
          { param: 'events_from' },
        )
      }
      checkEnabledEvents(input.enabled_events, input.event_payload, organisation, 'enabled_events')
      checkUrl(input.webhook_endpoint.url, scope.mode, 'webhook_endpoint.url')
      if (input.snapshot_api_version !== undefined && input.event_payload === 'thin') {
        throw invalidRequest('snapshot_api_version can only be set on destinations with event_payload snapshot.', {
          param: 'snapshot_api_version',
        })
      }
      const count = ordered.filter((d) => !d.deleted && d.account === scope.account && d.mode === scope.mode).length
      if (count >= MAX_ENDPOINTS) {
        throw invalidRequest(
          `You have reached the maximum of ${MAX_ENDPOINTS} webhook endpoints for this account in ${scope.mode} mode. Delete an endpoint before creating another.`,
          { code: 'webhook_endpoint_limit_reached', param: 'webhook_endpoint' },
        )
      }
      const now = kernel.clock.now
      const d: Destination = {
        id: kernel.ids.next('ed', 24),
        account: scope.account,
        mode: scope.mode,
        created: now,
        updated: now,
        name: input.name,
        description: input.description ?? '',
        type: 'webhook_endpoint',
        eventsFrom: [...new Set(eventsFrom)],
        eventPayload: input.event_payload,
        enabledEvents: [...new Set(input.enabled_events)],
        url: input.webhook_endpoint.url,
        // Pinned only when given; otherwise events keep the version in force when they occurred.
        snapshotApiVersion: input.snapshot_api_version,
        metadata: { ...input.metadata },
        status: 'enabled',
        secrets: [{ secret: newSecret(), expiresAt: undefined }],
        badCertificate: false,
        deleted: false,
      }
      byId.set(d.id, d)
      ordered.push(d)
      return touch(d, 'created')
    },
    get,
    find: (id) => byId.get(id),
    list: (scope) => ordered.filter((d) => !d.deleted && d.account === scope.account && d.mode === scope.mode).reverse(),
    all: () => ordered.filter((d) => !d.deleted),
    update(scope, id, input) {
      const d = get(scope, id)
      if (input.enabled_events !== undefined) {
        const organisation = d.eventsFrom.some((s) => ORGANISATION_SCOPES.includes(s))
        checkEnabledEvents(input.enabled_events, d.eventPayload, organisation, 'enabled_events')
      }
      if (input.webhook_endpoint !== undefined) checkUrl(input.webhook_endpoint.url, d.mode, 'webhook_endpoint.url')
      if (input.name !== undefined) d.name = input.name
      if (input.description !== undefined) d.description = input.description
      if (input.enabled_events !== undefined) d.enabledEvents = [...new Set(input.enabled_events)]
      if (input.webhook_endpoint !== undefined) d.url = input.webhook_endpoint.url
      if (input.metadata !== undefined) {
        for (const [k, v] of Object.entries(input.metadata)) {
          if (v === null || v === '') delete d.metadata[k]
          else d.metadata[k] = v
        }
      }
      return touch(d, 'updated')
    },
    remove(scope, id) {
      const d = get(scope, id)
      d.deleted = true
      return touch(d, 'deleted')
    },
    enable(scope, id) {
      const d = get(scope, id)
      d.status = 'enabled'
      return touch(d, 'enabled')
    },
    disable(scope, id) {
      const d = get(scope, id)
      d.status = 'disabled'
      return touch(d, 'disabled')
    },
    rollSecret(scope, id, overlapMs) {
      const d = get(scope, id)
      if (!Number.isFinite(overlapMs) || overlapMs < 0 || overlapMs > MAX_ROLL_OVERLAP_MS) {
        throw invalidRequest('The old secret can stay active for 0 to 24 hours (expires_in 0..86400 seconds).', {
          param: 'expires_in',
        })
      }
      const now = kernel.clock.now
      const secret = newSecret()
      const old = d.secrets.filter((s) => s.expiresAt === undefined || s.expiresAt > now)
      d.secrets = [
        { secret, expiresAt: undefined },
        ...old.map((s) => ({ secret: s.secret, expiresAt: Math.min(s.expiresAt ?? Infinity, now + overlapMs) })),
      ].filter((s) => s.expiresAt === undefined || s.expiresAt > now)
      touch(d, 'secret_rolled')
      return secret
    },
    activeSecrets(d) {
      const now = kernel.clock.now
      return d.secrets.filter((s) => s.expiresAt === undefined || s.expiresAt > now).map((s) => s.secret)
    },
    setBadCertificate(id, bad) {
      const d = byId.get(id)
      if (d === undefined) throw new TypeError(`No such event destination: '${id}'`)
      d.badCertificate = bad
      kernel.trace.append('destination.bad_certificate', { id, bad })
    },
  }
}
