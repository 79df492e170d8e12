import { CHANGES } from './changes/index.js'

type Obj = Record<string, unknown>

/** Per `object` value, the fields answered only when expanded at a version. */
export type WithheldAt = ReadonlyMap<string, ReadonlySet<string>>

const memo = new Map<string, WithheldAt>()

/**
 * The fields the provider answers only when `expand[]` names them at `version`, by `object` value:
 * those of the changes at or before it that declare `withheld` (a charge's `refunds` from
 * 2022-11-15 on). A preview is current. Computed once per version.
 *
 * @example
 * withheldAt('2026-10-28.endive').get('charge')?.has('refunds') // true
 * withheldAt('2022-08-01').get('charge')                          // undefined
 */
export function withheldAt(version: string): WithheldAt {
  let hit = memo.get(version)
  if (hit === undefined) {
    const out = new Map<string, Set<string>>()
    const date = version.endsWith('.preview') ? '9999' : version
    for (const change of CHANGES) {
      if (change.withheld === undefined || change.version > date) continue
      for (const [kind, fields] of Object.entries(change.withheld)) {
        const set = out.get(kind) ?? new Set<string>()
        for (const f of fields) set.add(f)
        out.set(kind, set)
      }
    }
    hit = out
    memo.set(version, hit)
  }
  return hit
}

/**
 * An event's `data.object` as the provider sends it at `version`: without the fields that version
 * answers only when expanded (an event is never expanded). The object itself when it holds none of
 * them; a copy otherwise.
 *
 * @example
 * eventObjectAt(charge, '2026-10-28.endive') // the charge without `refunds`
 * eventObjectAt(charge, '2022-08-01')        // the charge as it is
 */
export function eventObjectAt(object: Obj, version: string): Obj {
  const kind = object.object
  const fields = typeof kind === 'string' ? withheldAt(version).get(kind) : undefined
  if (fields === undefined) return object
  let out: Obj | undefined
  for (const f of fields) {
    if (!(f in object)) continue
    out ??= { ...object }
    delete out[f]
  }
  return out ?? object
}
