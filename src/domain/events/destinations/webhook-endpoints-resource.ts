import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { ENDPOINT_OBJECT } from './destination.js'

/** `enabled_events` without repeats, in the order given. */
function distinct(types: unknown): string[] | undefined {
  return Array.isArray(types) ? [...new Set(types as string[])] : undefined
}

/**
 * v1 webhook endpoints (`/v1/webhook_endpoints`), the way most apps and the provider's CLI
 * register: destinations of the same delivery engine as v2 event destinations (signing, retries,
 * resend, faults, trace). The engine stores the object as the API shows it; the behaviours add the
 * URL rules, the one cap of 16 shared with v2 destinations, a seeded random `whsec_` secret shown
 * only in the create answer, `connect` (kept beside the object: the provider does not show it)
 * and `disabled` on update as the `status`.
 *
 * @example
 * engine.run('webhookEndpoints.update', { scope, origin, path: { id: 'we_1' }, params: { disabled: true } })
 */
export const webhookEndpoints: ResourceDeclaration<ResourcePorts> = {
  type: 'WebhookEndpoint',
  object: 'webhook_endpoint',
  noun: 'webhook endpoint',
  idPrefix: 'we',
  defaults: () => ({ status: 'enabled' }),
  behaviours: {
    'webhookEndpoints.create'(call, next, env) {
      env.ports.destinations.checkEndpoint(call.scope, call.params, true)
      const created = next(undefined, { enabled_events: distinct(call.params.enabled_events) }) as Json
      const secret = env.ports.destinations.register(created, call.scope, { connect: call.params.connect === true })
      // Shown in this answer only, in the object's field order; never stored on the object.
      return Object.fromEntries(Object.entries({ ...created, secret }).sort(([a], [b]) => (a < b ? -1 : 1)))
    },
    'webhookEndpoints.update'(call, next, env) {
      // A missing endpoint is a 404 before any rule on the new values.
      env.engine.resource(ENDPOINT_OBJECT).require(call.scope, call.path.id ?? '')
      env.ports.destinations.checkEndpoint(call.scope, call.params, false)
      const { disabled, enabled_events: types, ...rest } = call.params
      const updated = next({
        ...rest,
        ...(types === undefined ? {} : { enabled_events: distinct(types) }),
        ...(disabled === undefined ? {} : { status: disabled === true ? 'disabled' : 'enabled' }),
      }) as Json
      env.ports.destinations.traced(updated.id, 'updated')
      return updated
    },
    'webhookEndpoints.del'(call, next, env) {
      const stub = next()
      env.ports.destinations.unregister(call.path.id ?? '')
      return stub
    },
  },
}
