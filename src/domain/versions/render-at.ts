import { objectType } from '#catalogue/index.js'
import { CURRENT_VERSION, type FieldChanges, fieldChanges, walksBack } from '#catalogue/versions.js'
import type { VersionChange, WalkContext } from './change.js'
import { CHANGES } from './changes/index.js'
import { noInvoices } from './intent-invoices.js'
import { type WithheldAt, withheldAt } from './withheld-at.js'

type Obj = Record<string, unknown>

/**
 * Whether answers at `version` walk back (any served version but the current one and previews).
 * At the current version this is one string comparison and reads no version data.
 *
 * @example
 * needsWalk('2026-10-28.endive') // false
 * needsWalk('2022-08-01')        // true
 */
export function needsWalk(version: string): boolean {
  return version !== CURRENT_VERSION && walksBack(version)
}

const backwards = new Map<string, readonly VersionChange[]>()

/** The hand-written changes an answer at `version` walks back through, newest first. */
export function changesAfter(version: string): readonly VersionChange[] {
  let hit = backwards.get(version)
  if (hit === undefined) {
    hit = CHANGES.filter((c) => c.version > version)
    backwards.set(version, hit)
  }
  return hit
}

/**
 * An answer of the current version rendered at an older one: for every object in it (lists and
 * expanded objects included), the hand-written changes newer than `version` restore what moved,
 * then the generated facts drop the fields `version` did not have and give the fields it had and
 * nothing restores a `null`, inside the sub-objects their fields hold too (`status_transitions`,
 * `payment_method_details.card`). Events are left as they are: they were rendered when they occurred.
 * The answer is not changed; a copy is returned. `expand` paths of the older version that name a
 * restored field (`latest_invoice.payment_intent`) are expanded on the result. `invoiceOf` answers
 * which invoice a payment intent pays (see `intentInvoices`).
 *
 * @example
 * renderAt(invoice, '2022-08-01', (id) => engine.find(scope, id)) // { ..., payment_intent: 'pi_…', paid: true }
 */
export function renderAt(
  answer: unknown,
  version: string,
  find: (id: string) => Obj | undefined,
  expand: readonly string[] = [],
  invoiceOf: (paymentIntent: string) => string | null = noInvoices,
): unknown {
  const ctx: WalkContext = { version, find, render: (o) => walkNode(w, o) as Obj, invoiceOf }
  const w: Walk = { changes: changesAfter(version), version, ctx, withheld: withheldAt(version) }
  return expand.reduce<unknown>((result, path) => expandAt(result, path.split('.'), ctx), walkNode(w, answer))
}

/** One walk: the changes it goes back through, its version, and what changes are handed. */
interface Walk {
  readonly changes: readonly VersionChange[]
  readonly version: string
  readonly ctx: WalkContext
  /** Fields answered only when expanded at the version: never given a `null` its client declared. */
  readonly withheld: WithheldAt
}

// A subtree nothing changes is answered as it is (no copy): most of an answer at a recent
// version, and the garbage of a walk is most of its cost. `held` is how the sub-object a parent's
// field holds differs at the version (from the generated facts), for a node without `object`.
function walkNode(w: Walk, node: unknown, held?: FieldChanges): unknown {
  if (Array.isArray(node)) return walkArray(w, node, held)
  if (node === null || typeof node !== 'object') return node
  const source = node as Obj
  const kind = source.object
  if (kind === 'event' || kind === 'v2.core.event') return node
  let out: Obj | undefined
  let facts = held
  let withheld: ReadonlySet<string> | undefined
  if (typeof kind === 'string') {
    withheld = w.withheld.get(kind)
    out = applyChanges(w, kind, source)
    const type = objectType(kind)
    facts = type === undefined ? undefined : fieldChanges(w.version, type, 'objects')
  }
  out = walkChildren(w, source, out, facts)
  if (facts !== undefined) out = applyFacts(facts, source, out, withheld)
  return out ?? source
}

function walkArray(w: Walk, node: readonly unknown[], held: FieldChanges | undefined): unknown {
  let copy: unknown[] | undefined
  for (let i = 0; i < node.length; i++) {
    const walked = walkNode(w, node[i], held)
    if (walked !== node[i]) {
      copy ??= node.slice()
      copy[i] = walked
    }
  }
  return copy ?? node
}

/** The hand-written changes of an object kind, applied to a copy made only when one applies. */
function applyChanges(w: Walk, kind: string, source: Obj): Obj | undefined {
  let out: Obj | undefined
  for (const change of w.changes) {
    const back = change.back?.[kind]
    if (back === undefined) continue
    out ??= { ...source }
    back(out, w.ctx)
  }
  return out
}

// Changes read the object as it is now (its children unwalked); the children they did not
// replace are walked next: an object a change put there is already rendered, and a sub-object
// it rewrote (a price's `recurring`) gets the generated facts only.
function walkChildren(w: Walk, source: Obj, changed: Obj | undefined, facts: FieldChanges | undefined): Obj | undefined {
  let out = changed
  for (const key in source) {
    const value = source[key]
    if (value === null || typeof value !== 'object') continue
    if (out !== undefined && out[key] !== value) {
      const put = out[key]
      const inner = facts?.sub(key)
      if (inner !== undefined && put !== null && typeof put === 'object' && typeof (put as Obj).object !== 'string') {
        out[key] = walkNode(w, put, inner)
      }
      continue
    }
    const walked = walkNode(w, value, facts?.sub(key))
    if (walked !== value) {
      out ??= { ...source }
      out[key] = walked
    }
  }
  return out
}

/**
 * The generated facts: fields the version did not have dropped, fields it required given as `null`
 * (but not the ones it answered only when expanded: a client of 2022-11-15 declared a charge's
 * `refunds` required, and the provider left it out).
 */
function applyFacts(
  facts: FieldChanges,
  source: Obj,
  changed: Obj | undefined,
  withheld: ReadonlySet<string> | undefined,
): Obj | undefined {
  let out = changed
  for (const key of facts.dropped) {
    if (!(key in (out ?? source))) continue
    out ??= { ...source }
    delete out[key]
  }
  for (const [key, presence] of facts.restored) {
    if (presence !== 'required' || key in (out ?? source) || withheld?.has(key)) continue
    out ??= { ...source }
    out[key] = null
  }
  for (const key of facts.required) {
    if (key in (out ?? source) || withheld?.has(key)) continue
    out ??= { ...source }
    out[key] = null
  }
  return out
}

/** The node with the id at `segs` replaced by its object rendered at the walk's version (a copy where it changes). */
function expandAt(node: unknown, segs: readonly string[], ctx: WalkContext): unknown {
  if (Array.isArray(node)) {
    const items = node.map((item) => expandAt(item, segs, ctx))
    return items.every((item, i) => item === node[i]) ? node : items
  }
  if (node === null || typeof node !== 'object' || segs.length === 0) return node
  const o = node as Obj
  const [head, ...rest] = segs as [string, ...string[]]
  if (rest.length > 0) {
    const inner = expandAt(o[head], rest, ctx)
    return inner === o[head] ? o : { ...o, [head]: inner }
  }
  const id = o[head]
  const found = typeof id === 'string' ? ctx.find(id) : undefined
  return found === undefined ? o : { ...o, [head]: ctx.render(found) }
}
