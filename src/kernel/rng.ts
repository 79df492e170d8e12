// alea alone: seedrandom's index loads every generator (see seedrandom-alea.d.ts)
import alea from 'seedrandom/lib/alea.js'

/**
 * One seeded stream of randomness. Each subsystem draws from its own named stream, so adding a
 * fault knob (which draws from `faults`) never shifts the ids (drawn from `ids`) of an existing run.
 *
 * @example
 * const rng = createRng(42)
 * rng.stream('ids').int(10) // the same number for seed 42, in any process
 */
export interface RandomStream {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [0, n). */
  int(n: number): number
  /** True with probability p. */
  chance(p: number): boolean
  /** A float in [min, max). */
  between(min: number, max: number): number
  /** Fisher–Yates shuffle, in place. */
  shuffle<T>(items: T[]): T[]
}

/** The saved position of every stream drawn from so far (alea's state: plain numbers). */
export type RngState = Record<string, { c: number; s0: number; s1: number; s2: number }>

export interface Rng {
  /** The root seed streams are derived from (changed by `reseed`). */
  readonly seed: string
  stream(name: string): RandomStream
  /** Positions of the streams made so far, for a snapshot. */
  save(): RngState
  /** Moves every saved stream to its saved position (streams keep their identity). */
  load(state: RngState): void
  /**
   * Restarts every stream from a new root seed, as if each were first drawn from now (streams keep
   * their identity, so holders need nothing). A prepared simulation continues per run with the
   * run's own seed this way: what follows depends on that seed alone, not on the setup's draws.
   *
   * @example
   * rng.reseed(7) // rng.stream('ids') now draws what createRng(7).stream('ids') would
   */
  reseed(seed: number | string): void
}

type Alea = (() => number) & { state(): RngState[string] }

export function createRng(seed: number | string): Rng {
  let root = String(seed)
  const streams = new Map<string, Stream>()
  function get(name: string) {
    let s = streams.get(name)
    if (s === undefined) {
      s = new Stream(name, root)
      streams.set(name, s)
    }
    return s
  }
  return {
    get seed() {
      return root
    },
    stream(name) {
      return get(name).stream
    },
    save() {
      const out: RngState = {}
      for (const [name, s] of streams) out[name] = s.state()
      return out
    },
    load(state) {
      for (const [name, saved] of Object.entries(state)) get(name).resume({ ...saved })
    },
    reseed(next) {
      root = String(next)
      for (const s of streams.values()) s.restart(root)
    },
  }
}

const seededAlea = (seed: string): Alea => alea(seed, { state: true }) as unknown as Alea

/**
 * One named stream: its generator made on first draw (a fork or a reseed that is never drawn from
 * costs nothing; seeding, where alea hashes its seed, is the costly part), from the root seed it
 * was last (re)started from or the position it was last loaded at. A class, not a closure per
 * stream: a simulator (a fork per property run) makes several, and a dev-time transform that
 * keeps function names (tsx) names every closure made.
 */
class Stream implements RandomStream {
  private made: Alea | undefined
  // The position a load gave (the generator resumes there), else undefined: seeded from `root`.
  private loaded: RngState[string] | undefined

  constructor(
    private readonly name: string,
    private root: string,
  ) {}

  /** This stream, as its owners see it (the public `RandomStream`). */
  get stream(): RandomStream {
    return this
  }

  private make(): Alea {
    const at = this.loaded
    return at === undefined ? seededAlea(`${this.root}/${this.name}`) : (alea('', { state: { ...at } }) as unknown as Alea)
  }

  private prng(): number {
    if (this.made === undefined) {
      this.made = this.make()
      this.loaded = undefined
    }
    return this.made()
  }

  next(): number {
    return this.prng()
  }

  int(n: number): number {
    return Math.floor(this.prng() * n)
  }

  chance(p: number): boolean {
    return p > 0 && this.prng() < p
  }

  between(min: number, max: number): number {
    return min + this.prng() * (max - min)
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.prng() * (i + 1))
      const t = items[i] as T
      items[i] = items[j] as T
      items[j] = t
    }
    return items
  }

  state(): RngState[string] {
    if (this.loaded !== undefined) return { ...this.loaded }
    if (this.made === undefined) this.made = this.make()
    return this.made.state()
  }

  /** Goes on from a saved position (taken over: the caller passes a copy). */
  resume(at: RngState[string]): void {
    this.made = undefined
    this.loaded = at
  }

  /** Starts again from a new root seed, as if first drawn from now. */
  restart(root: string): void {
    this.root = root
    this.made = undefined
    this.loaded = undefined
  }
}
