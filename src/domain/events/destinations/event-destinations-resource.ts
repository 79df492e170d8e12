import type { BehaviourEnv, OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { V2Page } from '../../engine/v2-list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { checkCreateParams, checkUpdateParams } from './destination-params.js'
import { DESTINATION_OBJECT } from './destinations.js'
import { includesOf, renderDestination } from './render.js'

type Env = BehaviourEnv<ResourcePorts>

/** A stored destination as this call's answer shows it (its `include`, the account's version). */
function shown(call: OperationCall, env: Env, stored: Json, secret?: string): Record<string, unknown> {
  const version = env.ports.accounts.get(call.scope.account)?.apiVersion
  return renderDestination(stored, includesOf(call.params), version, secret)
}

/** Enables or disables: the status, and `status_details` only while disabled. */
function setStatus(call: OperationCall, env: Env, status: 'enabled' | 'disabled'): Record<string, unknown> {
  const r = env.engine.resource(DESTINATION_OBJECT)
  const id = call.path.id ?? ''
  r.require(call.scope, id)
  const details = status === 'disabled' ? { disabled: { reason: 'user' } } : undefined
  r.set(call.scope, id, { status, status_details: details }, call.origin)
  const stored = r.put(call.scope, id, { status_details: details })
  env.ports.destinations.traced(id, status)
  return shown(call, env, stored)
}

/**
 * An EventBridge destination's partner event source, as the provider names it; `active` at once,
 * since the simulator's virtual bus is associated with it as it is made (at the provider it stays
 * `pending` until the AWS account associates it with a bus).
 */
function withEventSource(call: OperationCall, env: Env, created: Json): Json {
  const given = call.params.amazon_eventbridge as { aws_account_id: string; aws_region: string }
  return env.engine.resource(DESTINATION_OBJECT).put(call.scope, created.id, {
    amazon_eventbridge: {
      aws_account_id: given.aws_account_id,
      aws_event_source_arn: `arn:aws:events:${given.aws_region}::event-source/aws.partner/stripe.com/${created.id}`,
      aws_event_source_status: 'active',
    },
  }) as Json
}

/**
 * Event destinations (`/v2/core/event_destinations`), type `webhook_endpoint` or
 * `amazon_eventbridge` (delivered to a virtual event bus, `sim.admin.eventBus`). The engine stores
 * and serves them; the behaviours add the spec's registration rules (scopes, separate snapshot
 * and thin destinations, HTTPS, 16 per account and mode), the signing secret (shown once, on a
 * create that includes it), `include` on every answer, enable, disable and ping.
 *
 * @example
 * engine.run('v2.core.eventDestinations.disable', { scope, origin, path: { id: 'ed_1' }, params: {} })
 */
export const eventDestinations: ResourceDeclaration<ResourcePorts> = {
  type: 'V2.Core.EventDestination',
  object: 'v2.core.event_destination',
  noun: 'event destination',
  idPrefix: 'ed',
  touch: ['updated'],
  defaults: () => ({ metadata: {}, status: 'enabled', webhook_endpoint: {} }),
  behaviours: {
    'v2.core.eventDestinations.create'(call, next, env) {
      checkCreateParams(call.params)
      env.ports.destinations.checkCreate(call.scope, call.params)
      const { params } = call
      const fixed = {
        events_from: [...new Set((params.events_from as string[] | undefined) ?? ['@self'])],
        enabled_events: [...new Set(params.enabled_events as string[])],
      }
      let created = next(undefined, fixed) as Json
      if (params.type === 'amazon_eventbridge') created = withEventSource(call, env, created)
      const secret = env.ports.destinations.register(created, call.scope)
      return shown(call, env, created, secret)
    },
    'v2.core.eventDestinations.retrieve': (call, next, env) => shown(call, env, next() as Json),
    'v2.core.eventDestinations.list'(call, next, env) {
      const page = next() as V2Page
      return { ...page, data: page.data.map((d) => shown(call, env, d)) }
    },
    'v2.core.eventDestinations.update'(call, next, env) {
      checkUpdateParams(call.params)
      env.ports.destinations.checkUpdate(call.scope, call.path.id ?? '', call.params)
      const { enabled_events: types, ...rest } = call.params
      const params = Array.isArray(types) ? { ...rest, enabled_events: [...new Set(types)] } : rest
      const updated = next(params) as Json
      env.ports.destinations.traced(updated.id, 'updated')
      return shown(call, env, updated)
    },
    'v2.core.eventDestinations.del'(call, next, env) {
      const stub = next()
      env.ports.destinations.unregister(call.path.id ?? '')
      return stub
    },
    'v2.core.eventDestinations.enable': (call, _next, env) => setStatus(call, env, 'enabled'),
    'v2.core.eventDestinations.disable': (call, _next, env) => setStatus(call, env, 'disabled'),
    'v2.core.eventDestinations.ping'(call, _next, env) {
      // A v1 webhook endpoint's id names no event destination here.
      env.engine.resource(DESTINATION_OBJECT).require(call.scope, call.path.id ?? '')
      return env.ports.delivery.ping(call.scope, call.path.id ?? '').body
    },
  },
}
