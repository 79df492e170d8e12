import { objectType } from '#catalogue/index.js'
import { CURRENT_VERSION, fieldChanges, walksBack } from '#catalogue/versions.js'
import type { VersionChange, WalkContext } from './change.js'
import { CHANGES } from './changes/index.js'

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
 * nothing restores a `null`. Events are left as they are: they were rendered when they occurred.
 * The answer is not changed; a copy is returned. `expand` paths of the older version that name a
 * restored field (`latest_invoice.payment_intent`) are expanded on the result.
 *
 * @example
 * renderAt(invoice, '2022-08-01', (id) => engine.find(scope, id)) // { ..., payment_intent: 'pi_…', paid: true }
 */
export function renderAt(
  answer: unknown,
  version: string,
  find: (id: string) => Obj | undefined,
  expand: readonly string[] = [],
): unknown {
  const changes = changesAfter(version)
  const ctx: WalkContext = { version, find, render: (o) => walk(o) as Obj }
  function walk(node: unknown): unknown {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    const source = node as Obj
    const kind = source.object
    if (kind === 'event' || kind === 'v2.core.event') return node
    const out: Obj = { ...source }
    // Changes read the object as it is now (its children unwalked), then the children it did not
    // replace are walked: a value a change put there is already rendered.
    if (typeof kind === 'string') for (const change of changes) change.back?.[kind]?.(out, ctx)
    for (const key of Object.keys(source)) if (out[key] === source[key]) out[key] = walk(source[key])
    if (typeof kind !== 'string') return out
    const type = objectType(kind)
    const facts = type === undefined ? undefined : fieldChanges(version, type, 'objects')
    if (facts !== undefined) {
      for (const key of facts.dropped) delete out[key]
      for (const [key, presence] of facts.restored) if (presence === 'required' && !(key in out)) out[key] = null
      for (const key of facts.required) if (!(key in out)) out[key] = null
    }
    return out
  }
  const result = walk(answer)
  for (const path of expand) expandAt(result, path.split('.'), ctx)
  return result
}

function expandAt(node: unknown, segs: readonly string[], ctx: WalkContext): void {
  if (Array.isArray(node)) {
    for (const item of node) expandAt(item, segs, ctx)
    return
  }
  if (node === null || typeof node !== 'object' || segs.length === 0) return
  const o = node as Obj
  const [head, ...rest] = segs as [string, ...string[]]
  if (rest.length > 0) {
    expandAt(o[head], rest, ctx)
    return
  }
  const id = o[head]
  if (typeof id !== 'string') return
  const found = ctx.find(id)
  if (found !== undefined) o[head] = ctx.render(found)
}
