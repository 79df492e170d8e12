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
  /** One registered part's data as `copy()` gives it (a part whose changes a kept copy cannot see). */
  copyOf(name: string): unknown
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

/** A part's data for a fork: its `copy` where it has one, else its `save`. */
function copied(part: StatePart): unknown {
  return part.copy ? part.copy() : part.save()
}

/** Loads what `copied` gave: by `loadCopy` where the part has one, else by `load`. */
function loadCopied(part: StatePart, data: unknown): void {
  if (part.loadCopy) part.loadCopy(data)
  else part.load(data)
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
  return new Registry()
}

/**
 * A class rather than an object of closures: a registry is made per simulator (a fork per property
 * run), and its methods on the prototype cost nothing per instance.
 */
class Registry implements StateRegistry {
  // Held data sits in the place its part will take: `Map.set` of a key keeps its position, so
  // a part made later saves in the order its data was loaded, as if made at the load.
  private readonly parts = new Map<string, StatePart | Held>()
  // During `loadCopy`: the held parts registered (and so loaded) while the other parts load.
  private takenWhileLoading: Set<string> | undefined
  private readonly providers: { prefix: string; make: (rest: string) => void }[] = []

  private providerOf(name: string): { prefix: string; make: (rest: string) => void } | undefined {
    for (const p of this.providers) if (name.startsWith(p.prefix)) return p
    return undefined
  }

  /** A provided part may be missing from a snapshot taken before its first use, or left out empty. */
  private provided(name: string): boolean {
    return this.providerOf(name) !== undefined
  }

  /** Makes the provided parts a snapshot names, so that it loads into them. */
  private provideFor(saved: Readonly<Record<string, unknown>>): void {
    for (const name of Object.keys(saved)) {
      if (this.parts.has(name)) continue
      const provider = this.providerOf(name)
      if (provider !== undefined) provider.make(name.slice(provider.prefix.length))
    }
  }

  /** The registered part of a name, made first when its data is held. */
  private partOf(name: string, part: StatePart | Held): StatePart {
    if (!(part instanceof Held)) return part
    part.make()
    const made = this.parts.get(name)
    if (made === undefined || made instanceof Held)
      throw new Error(`state: provided part '${name}' was not registered by its maker`)
    return made
  }

  register(name: string, part: StatePart): void {
    const held = this.parts.get(name)
    if (held !== undefined && !(held instanceof Held)) throw new Error(`state: part '${name}' is registered twice`)
    this.parts.set(name, part)
    if (held !== undefined) {
      this.takenWhileLoading?.add(name)
      loadCopied(part, held.data)
    }
  }

  provide(prefix: string, make: (rest: string) => void): void {
    this.providers.push({ prefix, make })
  }

  save(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const [name, entry] of this.parts) {
      const data = this.partOf(name, entry).save()
      // A provided part with nothing in it is left out, as if never made.
      if (data !== undefined || !this.provided(name)) out[name] = data
    }
    return out
  }

  load(saved: Readonly<Record<string, unknown>>): void {
    this.provideFor(saved)
    const unknown = Object.keys(saved).filter((n) => !this.parts.has(n))
    if (unknown.length > 0) {
      throw new Error(`snapshot: state part(s) ${unknown.map((n) => `'${n}'`).join(', ')} are not known to this simulator`)
    }
    for (const [name, entry] of this.parts) {
      if (!(name in saved)) {
        if (this.provided(name)) continue
        throw new Error(`snapshot: the snapshot has no state for part '${name}'`)
      }
      this.partOf(name, entry).load(saved[name])
    }
  }

  copy(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const [name, entry] of this.parts) {
      const data = copied(this.partOf(name, entry))
      if (data !== undefined || !this.provided(name)) out[name] = data
    }
    return out
  }

  copyOf(name: string): unknown {
    const entry = this.parts.get(name)
    if (entry === undefined) throw new Error(`state: no part '${name}'`)
    return copied(this.partOf(name, entry))
  }

  loadCopy(saved: Readonly<Record<string, unknown>>): void {
    for (const name of Object.keys(saved)) {
      if (this.parts.has(name)) continue
      const provider = this.providerOf(name)
      if (provider === undefined) continue
      this.parts.set(name, new Held(saved[name], provider.make, name.slice(provider.prefix.length)))
    }
    // A part made while others load (a module reading a resource) takes its held data as it
    // registers, and is not loaded again when the loop reaches it.
    const taken = new Set<string>()
    this.takenWhileLoading = taken
    try {
      for (const [name, part] of this.parts) {
        if (part instanceof Held || taken.has(name)) continue
        if (!(name in saved)) {
          if (this.provided(name)) continue
          throw new Error(`snapshot: the copy has no state for part '${name}'`)
        }
        loadCopied(part, saved[name])
      }
    } finally {
      this.takenWhileLoading = undefined
    }
  }

  holds(name: string): boolean {
    return this.parts.has(name)
  }

  get names(): readonly string[] {
    return [...this.parts.keys()]
  }
}
