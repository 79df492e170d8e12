import { type FieldChanges, fieldChanges } from '#catalogue/versions.js'
import { changesAfter } from './render-at.js'

type Obj = Record<string, unknown>

/** A request of an older version read as a current one. */
export interface WalkedRequest {
  readonly params: Obj
  /** Expand paths taken out because they name a field the current version moved (applied to the answer). */
  readonly deferred: readonly string[]
  /** Values of the older version the current params have no place for (see `VersionChange.forward`). */
  readonly aside: Obj
}

/**
 * Params sent at an older `version` turned into current ones: the hand-written changes newer than
 * it translate (oldest first), parameters the version documented and the current one has not are
 * accepted and dropped, nested ones included (the generated facts say which), and expand paths the current version
 * refuses whose last segment a change restores are deferred to the answer.
 *
 * @example
 * requestAt('paymentIntents.create', 'PaymentIntentCreateParams', { payment_method_types: ['card'] }, '2022-08-01', () => true)
 * // { params: { allowed_payment_method_types: ['card'] }, deferred: [], aside: {} }
 */
export function requestAt(
  operation: string,
  paramsType: string | undefined,
  input: Obj,
  version: string,
  expandableNow: (path: string) => boolean,
): WalkedRequest {
  const changes = changesAfter(version)
  const params: Obj = { ...input }
  const aside: Obj = {}
  for (let i = changes.length - 1; i >= 0; i--) changes[i]!.forward?.[operation]?.(params, aside)
  const deferred: string[] = []
  if (Array.isArray(params.expand)) {
    const restorable = new Set(changes.flatMap((c) => c.expandable ?? []))
    const keep: unknown[] = []
    for (const path of params.expand) {
      const last = typeof path === 'string' ? path.split('.').pop()! : ''
      if (typeof path === 'string' && restorable.has(last) && !expandableNow(path)) {
        deferred.push(path)
        // The object holding the restored field is expanded as asked: `latest_invoice` of
        // `latest_invoice.payment_intent`.
        const holder = path.split('.').slice(0, -1).join('.')
        if (holder !== '' && holder !== 'data' && !keep.includes(holder)) keep.push(holder)
      } else keep.push(path)
    }
    if (keep.length === 0) delete params.expand
    else params.expand = keep
  }
  const facts = paramsType === undefined ? undefined : fieldChanges(version, paramsType, 'params')
  return { params: facts === undefined ? params : (withoutOlder(params, facts) as Obj), deferred, aside }
}

/**
 * The params without the keys the version documented and the current one has not, at every depth
 * the params types nest (`subscription_data[trial_from_plan]`): accepted, and ignored as the
 * current version has no place for them. Copies where it changes; the caller's params are kept.
 */
function withoutOlder(value: unknown, facts: FieldChanges): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => withoutOlder(item, facts))
    return items.every((item, i) => item === value[i]) ? value : items
  }
  if (value === null || typeof value !== 'object') return value
  const source = value as Obj
  let out: Obj | undefined
  for (const key of facts.restored.keys()) {
    if (!(key in source)) continue
    out ??= { ...source }
    delete out[key]
  }
  for (const key in source) {
    const child = source[key]
    if (child === null || typeof child !== 'object') continue
    const inner = facts.sub(key)
    if (inner === undefined) continue
    const walked = withoutOlder(child, inner)
    if (walked === child) continue
    out ??= { ...source }
    out[key] = walked
  }
  return out ?? source
}
