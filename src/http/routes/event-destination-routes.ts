import { z } from 'zod'
import type { Destination } from '#domain/destinations/destination.js'
import type { Scope } from '#domain/mode.js'
import { v2List, v2ListFields } from '../pagination.js'
import { nonEmpty } from '../params.js'
import type { RequestContext, Route } from '../route.js'

const INCLUDES = ['webhook_endpoint.signing_secret', 'webhook_endpoint.url'] as const
type Include = (typeof INCLUDES)[number]

/** `include` as a JSON array or, in a query, one value or a bracket array. */
const include = z
  .union([z.enum(INCLUDES), z.array(z.enum(INCLUDES))])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .optional()

const eventsFrom = z.enum(['@self', '@accounts', '@organization_members', '@organization_members/@accounts'])
const eventTypes = z.array(nonEmpty).max(1000)
const metadataParam = z.record(z.string().max(40), z.string().max(500)).refine((m) => Object.keys(m).length <= 50, {
  message: 'Invalid metadata: at most 50 keys',
})
const webhookEndpoint = z.object({ url: nonEmpty })

const createBody = z.object({
  name: nonEmpty.max(5000),
  type: z.literal('webhook_endpoint'),
  event_payload: z.enum(['snapshot', 'thin']),
  enabled_events: eventTypes,
  events_from: z.array(eventsFrom).min(1).optional(),
  description: z.string().max(5000).optional(),
  metadata: metadataParam.optional(),
  snapshot_api_version: nonEmpty.optional(),
  webhook_endpoint: webhookEndpoint,
  include,
})

const updateBody = z.object({
  name: nonEmpty.max(5000).optional(),
  description: z.string().max(5000).optional(),
  enabled_events: eventTypes.optional(),
  metadata: z.record(z.string().max(40), z.string().max(500).nullable()).optional(),
  webhook_endpoint: webhookEndpoint.optional(),
  include,
})

const includeQuery = z.object({ include })
const listQuery = z.object({ ...v2ListFields, include })
// Roll secret and event retry are the simulator's own operations (not the official client's): their
// schemas refuse unknown keys themselves.
const rollBody = z.object({ expires_in: z.number().int().min(0).max(86_400).optional(), include }).strict()
const empty = z.object({})

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The `v2.core.event_destination` object as the provider's API reference shows it. The signing
 * secret appears only when `include` asks for it (create, and the simulator's roll), the URL only
 * when `include` names `webhook_endpoint.url`.
 *
 * @example
 * destinationJson(d, ['webhook_endpoint.url'], undefined)
 */
export function destinationJson(
  d: Destination,
  includes: readonly Include[] = [],
  secret?: string,
  accountVersion?: string,
): Record<string, unknown> {
  // Fields the provider's types declare optional are left out when they have no value, as the
  // real API does (`'url' in webhook_endpoint` must be false unless it was included).
  const snapshotVersion = d.eventPayload === 'snapshot' ? (d.snapshotApiVersion ?? accountVersion) : undefined
  const webhookEndpoint: Record<string, unknown> = {}
  if (secret !== undefined && includes.includes('webhook_endpoint.signing_secret')) webhookEndpoint.signing_secret = secret
  if (includes.includes('webhook_endpoint.url')) webhookEndpoint.url = d.url
  return {
    id: d.id,
    object: 'v2.core.event_destination',
    created: iso(d.created),
    description: d.description,
    enabled_events: [...d.enabledEvents],
    event_payload: d.eventPayload,
    events_from: [...d.eventsFrom],
    livemode: d.mode === 'live',
    metadata: { ...d.metadata },
    name: d.name,
    ...(snapshotVersion === undefined ? {} : { snapshot_api_version: snapshotVersion }),
    status: d.status,
    ...(d.status === 'disabled' ? { status_details: { disabled: { reason: 'user' } } } : {}),
    type: d.type,
    updated: iso(d.updated),
    webhook_endpoint: webhookEndpoint,
  }
}

// An unpinned snapshot destination shows the version its events currently get: the account's.
const toJson = (ctx: RequestContext, d: Destination, includes?: readonly Include[], secret?: string) =>
  destinationJson(d, includes, secret, ctx.service.accounts.get(d.account)?.apiVersion)
const scopeOf = (ctx: RequestContext): Scope => ({ account: ctx.principal.account.id, mode: ctx.principal.mode })
const idOf = (ctx: RequestContext) => ctx.params.id ?? ''
const BASE = '/v2/core/event_destinations'

/** `/v2/core/event_destinations`: create, retrieve, list, update, delete, enable, disable, ping, roll secret. */
export const eventDestinationRoutes: Route[] = [
  {
    method: 'POST',
    path: BASE,
    operation: 'v2.core.eventDestinations.create',
    body: createBody,
    handle(ctx) {
      const { include: inc, ...input } = ctx.body as z.infer<typeof createBody>
      const d = ctx.service.destinations.create(scopeOf(ctx), input)
      return toJson(ctx, d, inc ?? [], d.secrets[0]?.secret)
    },
  },
  {
    method: 'GET',
    path: BASE,
    operation: 'v2.core.eventDestinations.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const filter: Record<string, string> = {}
      for (const [i, v] of (q.include ?? []).entries()) filter[`include[${i}]`] = v
      return v2List(ctx.service.destinations.list(scopeOf(ctx)), q, BASE, (d) => toJson(ctx, d, q.include), filter)
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:id`,
    operation: 'v2.core.eventDestinations.retrieve',
    object: 'id',
    query: includeQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof includeQuery>
      return toJson(ctx, ctx.service.destinations.get(scopeOf(ctx), idOf(ctx)), q.include)
    },
  },
  {
    method: 'POST',
    path: `${BASE}/:id`,
    operation: 'v2.core.eventDestinations.update',
    object: 'id',
    body: updateBody,
    handle(ctx) {
      const { include: inc, ...input } = ctx.body as z.infer<typeof updateBody>
      return toJson(ctx, ctx.service.destinations.update(scopeOf(ctx), idOf(ctx), input), inc)
    },
  },
  {
    method: 'DELETE',
    path: `${BASE}/:id`,
    operation: 'v2.core.eventDestinations.del',
    object: 'id',
    body: empty,
    handle(ctx) {
      const d = ctx.service.destinations.remove(scopeOf(ctx), idOf(ctx))
      return { id: d.id, object: 'v2.core.event_destination', deleted: true }
    },
  },
  {
    method: 'POST',
    path: `${BASE}/:id/enable`,
    operation: 'v2.core.eventDestinations.enable',
    object: 'id',
    body: empty,
    handle: (ctx) => toJson(ctx, ctx.service.destinations.enable(scopeOf(ctx), idOf(ctx))),
  },
  {
    method: 'POST',
    path: `${BASE}/:id/disable`,
    operation: 'v2.core.eventDestinations.disable',
    object: 'id',
    body: empty,
    handle: (ctx) => toJson(ctx, ctx.service.destinations.disable(scopeOf(ctx), idOf(ctx))),
  },
  {
    method: 'POST',
    path: `${BASE}/:id/ping`,
    operation: 'v2.core.eventDestinations.ping',
    object: 'id',
    body: empty,
    handle: (ctx) => ctx.service.delivery.ping(scopeOf(ctx), idOf(ctx)).body,
  },
  {
    method: 'POST',
    path: `${BASE}/:id/roll_secret`,
    operation: 'v2.core.eventDestinations.rollSecret',
    object: 'id',
    body: rollBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof rollBody>
      const secret = ctx.service.destinations.rollSecret(scopeOf(ctx), idOf(ctx), (b.expires_in ?? 0) * 1000)
      const d = ctx.service.destinations.get(scopeOf(ctx), idOf(ctx))
      return toJson(ctx, d, ['webhook_endpoint.signing_secret', ...(b.include ?? [])], secret)
    },
  },
  {
    method: 'POST',
    path: '/v1/events/:id/retry',
    operation: 'events.retry',
    object: 'id',
    body: z.object({ webhook_endpoint: nonEmpty }).strict(),
    handle(ctx) {
      const b = ctx.body as { webhook_endpoint: string }
      const scope = scopeOf(ctx)
      const id = idOf(ctx)
      // Not awaited: the receiver may call back into the service while this request is answered.
      void ctx.service.delivery.resend(id, b.webhook_endpoint, 'cli', scope)
      return ctx.service.events.get(scope, id)?.body ?? { id, object: 'event' }
    },
  },
]
