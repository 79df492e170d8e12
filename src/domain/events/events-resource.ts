import type { ResourceDeclaration } from '../engine/declaration.js'
import { type Json, pageV1, passesRange } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing, tableError } from '../service-error.js'

/** The provider takes at most this many `types` in one list. */
const MAX_TYPES = 20

/** Matches a type filter; `*` stands for any suffix (`customer.*`), as the provider allows. */
function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type
}

/** The `type` or `types` filter as patterns (undefined: every type); both at once are refused. */
function patternsOf(params: Readonly<Record<string, unknown>>): readonly string[] | undefined {
  const { type, types } = params
  if (type !== undefined && types !== undefined) {
    throw tableError('parameters_exclusive', { params: 'type, types' }, { param: 'types' })
  }
  if (Array.isArray(types) && types.length > MAX_TYPES) {
    throw tableError('parameter_invalid', { param: 'types', detail: `at most ${MAX_TYPES} event types` }, { param: 'types' })
  }
  if (types !== undefined) return types as string[]
  return typeof type === 'string' ? [type] : undefined
}

/**
 * v1 events (`/v1/events`): the snapshot events of the account and mode, served from the event
 * store where each is kept once, as its body was built at emission (its structure fixed by the
 * account's version then: `Service-Version` on these requests never changes it). Newest first.
 *
 * @example
 * engine.run('events.list', { scope, origin, path: {}, params: { type: 'customer.*', limit: 3 } })
 */
export const events: ResourceDeclaration<ResourcePorts> = {
  type: 'Event',
  object: 'event',
  idPrefix: 'evt',
  only: [],
  behaviours: {
    'events.retrieve'(call, _next, { ports }) {
      const id = call.path.id ?? ''
      const e = ports.events.get(call.scope, id)
      if (e === undefined || e.kind !== 'snapshot') throw resourceMissing('event', id)
      return e.body
    },
    'events.list'(call, _next, { ports }) {
      const { params } = call
      const patterns = patternsOf(params)
      const items = [...ports.events.list(call.scope, 'snapshot')]
        .reverse()
        .filter(
          (e) =>
            (patterns === undefined || patterns.some((p) => typeMatches(p, e.type))) &&
            (params.created === undefined || passesRange(Math.floor(e.at / 1000), params.created, 'created')),
        )
      return pageV1(
        items.map((e) => e.body as Json),
        params,
        '/v1/events',
        'event',
      )
    },
  },
}
