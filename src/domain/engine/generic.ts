import { objectValues, operations, resourceData } from '#catalogue/index.js'
import type { Operation } from '#catalogue/types.js'
import { resourceMissing } from '../service-error.js'
import type { Behaviour, ResourceDeclaration } from './declaration.js'
import { actionBehaviour, isAction } from './generic-actions.js'
import { verbOf } from './operation-index.js'

/** The object type an operation answers, `Deleted*` read as its live type (as the engine reads it). */
function typeOf(op: Operation): string | undefined {
  if (op.returns.type === 'V2.DeletedObject') return op.resource
  return op.returns.type?.replace(/(^|\.)Deleted(?=[A-Z])/, '$1')
}

/** An id prefix made from the object value where the provider's fixtures give none (`v2.core.account` → `acct`-like `account`). */
function madePrefix(object: string): string {
  const last = object.slice(object.lastIndexOf('.') + 1)
  return last.replace(/[^a-z]/g, '').slice(0, 12) || 'obj'
}

/**
 * A read or write of an object that has no id of its own, one per parent (a customer's cash
 * balance, the account's balance settings): answered from the catalogue's shape with the parents
 * in the path checked, the params of a write applied. Not kept: the provider computes these.
 */
function singletonBehaviour(op: Operation, object: string): Behaviour {
  return (call, _next, { engine }) => {
    for (const p of op.pathParams) {
      const id = call.path[p] ?? ''
      if (engine.find(call.scope, id) === undefined) throw resourceMissing(p, id, p)
    }
    const parent = op.pathParams.at(-1)
    const r = engine.resource(object)
    const built = r.build(
      call.scope,
      parent === undefined ? '' : (call.path[parent] ?? ''),
      op.method === 'POST' ? call.params : {},
    )
    return built
  }
}

/** Looks like an object id (`rc_1Pgc…`, `fa_…`): a field worth inheriting from a referenced object. */
const ID = /^[a-z]+(?:_[a-z]+)?_[A-Za-z0-9]{8,}$/

/**
 * The generic create: `'now'` for a timestamp param is the current time (`active_from: 'now'`), and
 * the ids a referenced object carries fill the new object's empty fields of the same name (a credit
 * reversal of a received credit belongs to the credit's financial account), as the provider fills them.
 */
const genericCreate: Behaviour = (call, next, { engine }) => {
  const params: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(call.params)) params[k] = v === 'now' ? engine.now() : v
  const inherited: Record<string, unknown> = {}
  for (const v of Object.values(call.params)) {
    const named = typeof v === 'string' && ID.test(v) ? engine.find(call.scope, v) : undefined
    for (const [k, value] of Object.entries(named ?? {})) {
      if (k !== 'id' && typeof value === 'string' && ID.test(value)) inherited[k] = value
    }
  }
  return next(params, (created) => {
    const fill: Record<string, unknown> = {}
    for (const [k, value] of Object.entries(inherited)) {
      if (k in created && (created[k] === null || created[k] === '') && !(k in params)) fill[k] = value
    }
    return fill
  })
}

/** A create under another name: the object is made from the params and kept, with its `*.created` event. */
function createBehaviour(object: string): Behaviour {
  return (call, _next, { engine }) => engine.resource(object).create(call.scope, call.params, call.origin)
}

/**
 * A declaration for a type the catalogue answers and nobody declared by hand: its `object` value,
 * its id prefix from the provider's fixtures, its snapshot events, and one behaviour for each of
 * its actions (`…/:id/cancel`) and id-less reads. Served like any declaration: create, retrieve,
 * update, delete, list (with the catalogue's filters), nested paths under a parent that must exist.
 */
function genericOf(type: string, object: string, ops: readonly Operation[]): ResourceDeclaration {
  const data = resourceData()
  const behaviours: Record<string, Behaviour> = {}
  let kept = false
  let created = false
  const singletons: Operation[] = []
  for (const op of ops) {
    const verb = verbOf(op)
    if (verb === 'create') created = true
    if (verb === 'retrieve' || verb === 'list' || verb === 'search') kept = true
    if (verb === 'create') behaviours[op.name] = genericCreate
    if (verb !== undefined || op.returns.kind !== 'object') continue
    if (isAction(op)) behaviours[op.name] = actionBehaviour(op, object)
    else if (op.method === 'GET' || op.method === 'POST') singletons.push(op)
  }
  for (const op of singletons) {
    // A POST that makes an object with an id of its own is a create by another name
    // (`tax.transactions.createFromCalculation`); otherwise a read or write of an id-less object.
    behaviours[op.name] = op.method === 'POST' && kept ? createBehaviour(object) : singletonBehaviour(op, object)
  }
  const eventPrefix = data.eventPrefixes[object]
  return {
    type,
    object,
    idPrefix: data.idPrefixes[object] ?? madePrefix(object),
    ...(eventPrefix === undefined ? {} : { eventPrefix }),
    // Nothing reads it back (no retrieve, no list): answered, not kept (login links, connection tokens).
    ...(kept ? {} : { ephemeral: true as const }),
    // The provider's own presets (tax codes, country specs, report types) are not kept: a param
    // naming one is taken as it is.
    ...(created ? {} : { tokens: () => true }),
    behaviours,
    generic: true,
  }
}

/**
 * Declarations for every object type the catalogue's operations answer that `explicit` does not
 * declare (by type or by `object` value): an explicit declaration always wins, so one added later
 * simply takes its type over.
 *
 * @example
 * const served = withGenerics(declarations) // explicit first, then one generic per undeclared type
 */
export function withGenerics<P>(explicit: readonly ResourceDeclaration<P>[]): ResourceDeclaration<P>[] {
  const types = new Set(explicit.map((d) => d.type))
  const objects = new Set(explicit.map((d) => d.object))
  const byType = new Map<string, Operation[]>()
  for (const op of operations()) {
    const type = typeOf(op)
    if (type === undefined || types.has(type)) continue
    const list = byType.get(type) ?? []
    list.push(op)
    byType.set(type, list)
  }
  const out: ResourceDeclaration<P>[] = [...explicit]
  for (const [object, type] of Object.entries(objectValues())) {
    const ops = byType.get(type)
    if (ops === undefined || objects.has(object)) continue
    out.push(genericOf(type, object, ops))
  }
  return out
}
