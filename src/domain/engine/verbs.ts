import { resourceMissing } from '../service-error.js'
import type { Fixed, OperationCall } from './declaration.js'
import { fieldEquals, type Json, pageV1, passesRange } from './list.js'
import type { Served } from './operation-index.js'
import type { Resource } from './resource.js'
import { searchPage } from './search.js'
import { pageV2 } from './v2-list.js'
import { isV2, nounOf } from './v2-object.js'

/** The operation's path with its placeholders filled in (a list's `url`). */
function urlOf(s: Served, call: OperationCall): string {
  return s.operation.path.replace(/:(\w+)/g, (_, name: string) => call.path[name] ?? '')
}

/** Parent placeholders as fields of the object (`customer: 'cus_1'`). */
function parentFields(s: Served, call: OperationCall): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of s.parentFields) out[p.field] = call.path[p.param] ?? ''
  return out
}

function inParent(s: Served, call: OperationCall, o: Json): boolean {
  for (const p of s.parentFields) {
    if (!fieldEquals(o[p.field], call.path[p.param])) return false
  }
  return true
}

/** Whether an object passes the plural filters of a list (`lookup_keys`: its `lookup_key` is one of them). */
function isMember(s: Served, params: Readonly<Record<string, unknown>>, o: Json): boolean {
  for (const { param, field } of s.memberFilters) {
    const wanted = params[param]
    if (Array.isArray(wanted) && wanted.length > 0 && !wanted.some((w) => fieldEquals(o[field], w))) return false
  }
  return true
}

/** A v2 list's items: the objects of the scope under the parent, by the equality filters. */
function listed(s: Served, resource: Resource, call: OperationCall): Json[] {
  const { params } = call
  return resource.list(call.scope).filter((o) => {
    if (!inParent(s, call, o)) return false
    for (const f of s.filters) {
      if (params[f] !== undefined && !fieldEquals(o[f], params[f])) return false
    }
    return isMember(s, params, o)
  })
}

/**
 * Runs the engine's own implementation of a served operation.
 *
 * @example
 * runVerb(served, resource, { scope, origin, path: { id: 'cus_1' }, params: {} })
 */
export function runVerb(s: Served, resource: Resource, call: OperationCall, fixed?: Fixed): unknown {
  const { scope, origin, params } = call
  const id = s.idParam === undefined ? '' : (call.path[s.idParam] ?? '')
  switch (s.verb) {
    case 'create': {
      const parents = parentFields(s, call)
      return resource.create(scope, params, origin, (o) => Object.assign(parents, typeof fixed === 'function' ? fixed(o) : fixed))
    }
    case 'retrieve': {
      const o = resource.retrieve(scope, id)
      if (!inParent(s, call, o)) throw resourceMissing(nounOf(resource.declaration), id)
      return o
    }
    case 'update': {
      if (!inParent(s, call, resource.require(scope, id))) throw resourceMissing(nounOf(resource.declaration), id)
      return resource.update(scope, id, params, origin)
    }
    case 'delete': {
      if (!inParent(s, call, resource.require(scope, id))) throw resourceMissing(nounOf(resource.declaration), id)
      return resource.delete(scope, id, origin)
    }
    case 'list': {
      if (isV2(resource.declaration)) return pageV2(listed(s, resource, call), params, urlOf(s, call))
      const items = resource.list(scope).filter((o) => {
        if (!inParent(s, call, o)) return false
        if (params.created !== undefined && !passesRange(o.created, params.created, 'created')) return false
        for (const f of s.filters) {
          if (params[f] !== undefined && !fieldEquals(o[f], params[f])) return false
        }
        return isMember(s, params, o)
      })
      return pageV1(items, params, urlOf(s, call), resource.declaration.object)
    }
    case 'search':
      return searchPage(resource.list(scope), params, urlOf(s, call))
    case 'action':
      throw new Error(`engine: ${s.operation.name} has no engine implementation (its behaviour must not call next)`)
  }
}
