/**
 * The parts of a simulation's state that a snapshot carries, each registered by the module that
 * owns it. `save()` returns plain data (JSON-safe, detached: the module must not change it later,
 * so it copies what it mutates in place and may share what it never mutates, such as frozen or
 * replaced-on-update objects); `load(data)` replaces the module's state with it (copying what it
 * will mutate, since one snapshot may be loaded many times). See docs/snapshot.md.
 *
 * @example
 * kernel.state.register('sessions', {
 *   save: () => toPlain([...byId.values()]),
 *   load: (data) => { byId.clear(); for (const s of fromPlain(data)) byId.set(s.id, s) },
 * })
 */
export interface StatePart {
  save(): unknown
  load(data: unknown): void
  /**
   * For `fork()` (in process, never JSON): data `loadCopy` takes over, e.g. indexes that copy
   * without a rebuild. Both or neither; without them `fork()` uses `save`/`load`.
   */
  copy?(): unknown
  loadCopy?(data: unknown): void
}

export interface StateRegistry {
  /** Registers one part under a name unique in the simulation. */
  register(name: string, part: StatePart): void
  /** Every part's saved data, by name. */
  save(): Record<string, unknown>
  /** Loads every part; a part missing from `parts`, or a name nobody registered, throws. */
  load(parts: Readonly<Record<string, unknown>>): void
  /** Every part's data for an in-process fork (`copy` where a part has one, else `save`). */
  copy(): Record<string, unknown>
  /** Loads what `copy()` returned (of a simulator with the same parts). */
  loadCopy(parts: Readonly<Record<string, unknown>>): void
  readonly names: readonly string[]
}

export function createStateRegistry(): StateRegistry {
  const parts = new Map<string, StatePart>()
  return {
    register(name, part) {
      if (parts.has(name)) throw new Error(`state: part '${name}' is registered twice`)
      parts.set(name, part)
    },
    save() {
      const out: Record<string, unknown> = {}
      for (const [name, part] of parts) out[name] = part.save()
      return out
    },
    load(saved) {
      const unknown = Object.keys(saved).filter((n) => !parts.has(n))
      if (unknown.length > 0) {
        throw new Error(`snapshot: state part(s) ${unknown.map((n) => `'${n}'`).join(', ')} are not known to this simulator`)
      }
      for (const [name, part] of parts) {
        if (!(name in saved)) throw new Error(`snapshot: the snapshot has no state for part '${name}'`)
        part.load(saved[name])
      }
    },
    copy() {
      const out: Record<string, unknown> = {}
      for (const [name, part] of parts) out[name] = part.copy ? part.copy() : part.save()
      return out
    },
    loadCopy(saved) {
      for (const [name, part] of parts) {
        if (!(name in saved)) throw new Error(`snapshot: the copy has no state for part '${name}'`)
        if (part.loadCopy) part.loadCopy(saved[name])
        else part.load(saved[name])
      }
    },
    get names() {
      return [...parts.keys()]
    },
  }
}
