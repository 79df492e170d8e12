import { isSealedAnswer, seal, sealedAnswer } from '#kernel/sealed.js'
import { isPlainObject } from './apply-params.js'
import type { ResourceDeclaration } from './declaration.js'

/** Withheld fields by `object` value, for the declarations that have any. */
export type WithheldFields = ReadonlyMap<string, readonly string[]>

/**
 * The withheld fields of a declaration list by `object` value (`price` → `['tiers']`).
 *
 * @example
 * withheldOf([prices]).get('price') // ['tiers', 'currency_options']
 */
export function withheldOf(declarations: readonly ResourceDeclaration[]): WithheldFields {
  const out = new Map<string, readonly string[]>()
  for (const d of declarations) if (d.withheld !== undefined && d.withheld.length > 0) out.set(d.object, d.withheld)
  return out
}

/** Objects are not looked into deeper than this (answers nest a few levels: list, item, price). */
const MAX_DEPTH = 8

/**
 * An answer without the stored includable fields `expand[]` does not name, wherever they sit (a
 * price, a list's prices, the price inside a subscription's items): the objects on the way to one
 * are copied, everything else is the answer itself, so an answer holding none costs one walk.
 * A field is named by its dotted path from the answer (`tiers`, `data.tiers`,
 * `items.data.price.tiers`), array positions left out as `expand[]` leaves them; a withheld field
 * may sit inside the object (`restrictions.currency_options` of a promotion code). A named one that
 * is a list answers its first page, as the provider's includable lists do.
 *
 * @example
 * withhold(price, [], withheldOf(declarations)) // the price without `tiers`
 * withhold(price, ['tiers'], withheldOf(declarations)) // the price as stored
 */
export function withhold(answer: unknown, paths: readonly string[], withheld: WithheldFields): unknown {
  if (withheld.size === 0) return answer
  // An answer given again and again (a retrieve) shows the same fields each time it is shown
  // without `expand[]`: what it shows is made once, and marked so its JSON text is made once too.
  if (paths.length > 0 || typeof answer !== 'object' || answer === null || !isSealedAnswer(answer)) {
    return walk(answer, [], paths, withheld, 0)
  }
  let shownOf = shownBy.get(withheld)
  if (shownOf === undefined) {
    shownOf = new WeakMap()
    shownBy.set(withheld, shownOf)
  }
  let shown = shownOf.get(answer)
  if (shown === undefined) {
    const walked = walk(answer, [], paths, withheld, 0)
    shown = walked === answer || typeof walked !== 'object' || walked === null ? answer : sealedAnswer(seal(walked))
    shownOf.set(answer, shown)
  }
  return shown
}

// What a sealed answer shows without `expand[]`, by the withheld fields in force and the answer:
// weak, so collected with either.
const shownBy = new WeakMap<WithheldFields, WeakMap<object, unknown>>()

/**
 * `at` is the path of keys from the answer to `value`, one stack shared by the whole walk (pushed
 * before a member is walked, popped after): a copy per member visited was most of the walk's
 * allocations, on an answer that holds no withheld field at all.
 */
function walk(value: unknown, at: string[], paths: readonly string[], withheld: WithheldFields, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const next = walk(item, at, paths, withheld, depth + 1)
      if (next !== item) {
        out ??= [...value]
        out[i] = next
      }
    }
    return out ?? value
  }
  // An event holds its object as it was sent when it occurred; reading it back answers the same body.
  if (!isPlainObject(value) || value.object === 'event') return value
  let out: Record<string, unknown> | undefined
  const fields = typeof value.object === 'string' ? withheld.get(value.object) : undefined
  if (fields !== undefined) {
    const prefix = at.length === 0 ? '' : `${at.join('.')}.`
    for (const f of fields) {
      const path = `${prefix}${f}`
      const named = paths.some((p) => p === path || p.startsWith(`${path}.`))
      const kept = rewrite(out ?? value, f.split('.'), named ? firstPage : remove)
      if (kept !== undefined) out = kept
    }
  }
  for (const key of Object.keys(value)) {
    // What a withheld field left of the object (a nested field removed copies its parents).
    const child = (out ?? value)[key]
    if (typeof child !== 'object' || child === null) continue
    at.push(key)
    const next = walk(child, at, paths, withheld, depth + 1)
    at.pop()
    if (next !== child) {
      out ??= { ...value }
      out[key] = next
    }
  }
  return out ?? value
}

/** How many items an includable list shows when expanded (the provider's first page). */
const INCLUDED_PAGE = 10

/** Marks a field to take out (`rewrite`). */
const REMOVED = Symbol('removed')

const remove = (): typeof REMOVED => REMOVED

/**
 * A named includable list as the provider shows it: its first page, `has_more` when it holds
 * more (a quote's 20 line items answer 10); anything else as it is.
 */
function firstPage(value: unknown): unknown {
  if (!isPlainObject(value) || value.object !== 'list' || !Array.isArray(value.data)) return value
  if (value.data.length <= INCLUDED_PAGE) return value
  return { ...value, data: value.data.slice(0, INCLUDED_PAGE), has_more: true }
}

/**
 * A copy of `object` with the field at `segs` (`['restrictions', 'currency_options']`) changed by
 * `change` (taken out when it answers `REMOVED`), the objects on the way copied; `undefined` when
 * the object does not hold the field or `change` keeps it as it is.
 */
function rewrite(
  object: Record<string, unknown>,
  segs: readonly string[],
  change: (value: unknown) => unknown,
): Record<string, unknown> | undefined {
  const [head, ...rest] = segs
  if (head === undefined || !(head in object)) return undefined
  const child = object[head]
  if (rest.length === 0) {
    const next = change(child)
    if (next === child) return undefined
    if (next !== REMOVED) return { ...object, [head]: next }
    // Copied without the field rather than deleted from a copy: a delete turns the copy into a
    // dictionary, which every later read and its JSON rendering pay for.
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(object)) if (key !== head) out[key] = object[key]
    return out
  }
  if (!isPlainObject(child)) return undefined
  const next = rewrite(child, rest, change)
  return next === undefined ? undefined : { ...object, [head]: next }
}
