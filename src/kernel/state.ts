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
  /**
   * Loads what `copy()` returned (of a simulator with the same parts). A provided part not made
   * yet is not made now: its data is held, in its place in the order of parts, and loaded when its
   * module registers it (on first use), or before a save or copy reads it.
   */
  loadCopy(parts: Readonly<Record<string, unknown>>): void
  /** True when a part of this name is registered, or held for a provided part not made yet. */
  holds(name: string): boolean
  readonly names: readonly string[]
}

/**
 * A provided part's copied data, waiting in the registry for its module to make the part: a fork
 * makes only the parts its run uses (most forks touch a few of the resources their original made).
 */
class Held {
  constructor(
    readonly data: unknown,
    private readonly maker: (rest: string) => void,
    private readonly rest: string,
  ) {}
  /** Has the part made (its module registers it, which loads the data). */
  make(): void {
    this.maker(this.rest)
  }
}

/**
 * Creates the registry of a simulation's state parts.
 *
 * @example
 * const state = createStateRegistry()
 * state.register('sessions', { save: () => [], load: () => undefined })
 * state.save() // { sessions: [] }
 */
export function createStateRegistry(): StateRegistry {
  // Held data sits in the place its part will take: `Map.set` of a key keeps its position, so
  // a part made later saves in the order its data was loaded, as if made at the load.
  const parts = new Map<string, StatePart | Held>()
  // During `loadCopy`: the held parts registered (and so loaded) while the other parts load.
  let takenWhileLoading: Set<string> | undefined
  const providers: { prefix: string; make: (rest: string) => void }[] = []
  const providerOf = (name: string) => providers.find((p) => name.startsWith(p.prefix))
  // A provided part may be missing from a snapshot taken before its first use, or left out empty.
  const provided = (name: string) => providerOf(name) !== undefined

  /** Makes the provided parts a snapshot names, so that it loads into them. */
  function provideFor(saved: Readonly<Record<string, unknown>>): void {
    for (const name of Object.keys(saved)) {
      if (parts.has(name)) continue
      const provider = providerOf(name)
      if (provider !== undefined) provider.make(name.slice(provider.prefix.length))
    }
  }

  /** The registered part of a name, made first when its data is held. */
  function partOf(name: string, part: StatePart | Held): StatePart {
    if (!(part instanceof Held)) return part
    part.make()
    const made = parts.get(name)
    if (made === undefined || made instanceof Held)
      throw new Error(`state: provided part '${name}' was not registered by its maker`)
    return made
  }

  return {
    register(name, part) {
      const held = parts.get(name)
      if (held !== undefined && !(held instanceof Held)) throw new Error(`state: part '${name}' is registered twice`)
      parts.set(name, part)
      if (held !== undefined) {
        takenWhileLoading?.add(name)
        if (part.loadCopy) part.loadCopy(held.data)
        else part.load(held.data)
      }
    },
    provide(prefix, make) {
      providers.push({ prefix, make })
    },
    save() {
      const out: Record<string, unknown> = {}
      for (const [name, entry] of parts) {
        const data = partOf(name, entry).save()
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
      for (const [name, entry] of parts) {
        if (!(name in saved)) {
          if (provided(name)) continue
          throw new Error(`snapshot: the snapshot has no state for part '${name}'`)
        }
        partOf(name, entry).load(saved[name])
      }
    },
    copy() {
      const out: Record<string, unknown> = {}
      for (const [name, entry] of parts) {
        const part = partOf(name, entry)
        const data = part.copy ? part.copy() : part.save()
        if (data !== undefined || !provided(name)) out[name] = data
      }
      return out
    },
    loadCopy(saved) {
      for (const name of Object.keys(saved)) {
        if (parts.has(name)) continue
        const provider = providerOf(name)
        if (provider === undefined) continue
        parts.set(name, new Held(saved[name], provider.make, name.slice(provider.prefix.length)))
      }
      // A part made while others load (a module reading a resource) takes its held data as it
      // registers, and is not loaded again when the loop reaches it.
      const taken = new Set<string>()
      takenWhileLoading = taken
      try {
        for (const [name, part] of parts) {
          if (part instanceof Held || taken.has(name)) continue
          if (!(name in saved)) {
            if (provided(name)) continue
            throw new Error(`snapshot: the copy has no state for part '${name}'`)
          }
          if (part.loadCopy) part.loadCopy(saved[name])
          else part.load(saved[name])
        }
      } finally {
        takenWhileLoading = undefined
      }
    },
    holds(name) {
      return parts.has(name)
    },
    get names() {
      return [...parts.keys()]
    },
  }
}
