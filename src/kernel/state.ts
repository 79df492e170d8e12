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
  /**
   * Parts made on first use (the engine's resources): before a load, `make(rest)` is called for
   * every saved name `prefix + rest` not registered yet, and must register it. Such a part may
   * save `undefined` when it holds nothing (it is then left out); one that a snapshot lacks stays
   * as made (empty).
   */
  provide(prefix: string, make: (rest: string) => void): void
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
  const providers: { prefix: string; make: (rest: string) => void }[] = []
  // A provided part may be missing from a snapshot taken before its first use, or left out empty.
  const provided = (name: string) => providers.some((p) => name.startsWith(p.prefix))

  /** Makes the provided parts a snapshot names, so that it loads into them. */
  function provideFor(saved: Readonly<Record<string, unknown>>): void {
    for (const name of Object.keys(saved)) {
      if (parts.has(name)) continue
      const provider = providers.find((p) => name.startsWith(p.prefix))
      if (provider !== undefined) provider.make(name.slice(provider.prefix.length))
    }
  }

  return {
    register(name, part) {
      if (parts.has(name)) throw new Error(`state: part '${name}' is registered twice`)
      parts.set(name, part)
    },
    provide(prefix, make) {
      providers.push({ prefix, make })
    },
    save() {
      const out: Record<string, unknown> = {}
      for (const [name, part] of parts) {
        const data = part.save()
        // A provided part with nothing in it is left out, as if never made.
        if (data !== undefined || !provided(name)) out[name] = data
      }
      return out
    },
    load(saved) {
      provideFor(saved)
      const unknown = Object.keys(saved).filter((n) => !parts.has(n))
      if (unknown.length > 0) {
        throw new Error(`snapshot: state part(s) ${unknown.map((n) => `'${n}'`).join(', ')} are not known to this simulator`)
      }
      for (const [name, part] of parts) {
        if (!(name in saved)) {
          if (provided(name)) continue
          throw new Error(`snapshot: the snapshot has no state for part '${name}'`)
        }
        part.load(saved[name])
      }
    },
    copy() {
      const out: Record<string, unknown> = {}
      for (const [name, part] of parts) {
        const data = part.copy ? part.copy() : part.save()
        if (data !== undefined || !provided(name)) out[name] = data
      }
      return out
    },
    loadCopy(saved) {
      provideFor(saved)
      for (const [name, part] of parts) {
        if (!(name in saved)) {
          if (provided(name)) continue
          throw new Error(`snapshot: the copy has no state for part '${name}'`)
        }
        if (part.loadCopy) part.loadCopy(saved[name])
        else part.load(saved[name])
      }
    },
    get names() {
      return [...parts.keys()]
    },
  }
}
