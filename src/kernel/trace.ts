import type { DigestState } from './trace-digest.js'
import type { TraceKind, TraceKinds } from './trace-kinds.js'
import { TraceLog } from './trace-log.js'

export { traceDigest } from './trace-digest.js'
export type { TraceKind, TraceKinds, TraceKindsIn } from './trace-kinds.js'
export { traceRecord } from './trace-record.js'

/**
 * One record of a trace whose kinds are declared by `M` (kind -> shape of its data): what
 * happened (`kind`), at which virtual time (`at`, epoch ms), in which order (`seq`), with its
 * details. A union over the kinds, so comparing `kind` narrows `data`.
 */
export type TraceEntryIn<M, K extends keyof M & string = keyof M & string> = {
  [P in K]: {
    readonly seq: number
    readonly at: number
    readonly kind: P
    /** The declared shape; members a reader does not know of read as `unknown`. */
    readonly data: Readonly<M[P]> & Readonly<Record<string, unknown>>
  }
}[K]

/**
 * One record of the simulator's trace, of kind `K` (any kind when omitted).
 *
 * @example
 * for (const e of sim.trace.entries()) if (e.kind === 'http') console.log(e.data.status) // a number
 */
export type TraceEntry<K extends TraceKind = TraceKind> = TraceEntryIn<TraceKinds, K>

/** Kinds declared elsewhere, any data: for a trace used on its own (tests, tools). */
export type UntypedKinds = Record<string, Record<string, unknown>>

/** `kind` itself and the kinds in its dotted group (`'http'`: `'http'` and `'http.replayed'`). */
type KindOrGroup<M, K extends string> = Extract<keyof M, K | `${K}.${string}`> & string

/**
 * The append-only record of everything a simulation did. Every entry's record is folded into a
 * chain of SHA-256 digests as it is appended (each the digest of the previous one and a batch of
 * records), so `hash()` is cheap at any point and stays exact even when `limit` lets old entries
 * fall out of memory on long runs; the chain's state is two strings, so a snapshot carries it and
 * a fork copies it for nothing.
 *
 * @example
 * const trace = createTrace({ now: () => clock.now })
 * trace.append('request', { method: 'GET', path: '/v1/balance' })
 * trace.hash() // 64 hex characters, equal for equal runs
 */
export interface Trace<M extends object = TraceKinds> {
  /**
   * Appends an entry; `data` has the shape declared for `kind`. `raw` members (large strings such
   * as request and response bodies) are hashed as length-prefixed bytes rather than through JSON,
   * which keeps hot paths cheap; they are merged into `data` for inspection.
   */
  append<K extends keyof M & string>(kind: K, data: M[K], raw?: Readonly<Record<string, string>>): TraceEntryIn<M, K>
  /** Entries still held in memory, oldest first. */
  entries(): readonly TraceEntryIn<M>[]
  /** Entries of one kind and of the kinds in its dotted group (`filter('http')` includes `http.replayed`). */
  filter<K extends keyof M & string>(kind: K): TraceEntryIn<M, KindOrGroup<M, K>>[]
  /** Entries of the kinds starting with `prefix.` (`filter('meter_events')`), or of a kind named at runtime. */
  filter(kindOrPrefix: string): TraceEntryIn<M>[]
  /** Total number of entries ever appended. */
  readonly length: number
  hash(): string
  /** Canonical JSON lines of the held entries. */
  toJsonl(): string
  subscribe(listener: (entry: TraceEntryIn<M>) => void): () => void
}

export interface TraceOptions {
  now: () => number
  /** Keep at most this many entries in memory; the hash still covers all of them. */
  limit?: number
}

/**
 * What a snapshot carries of a trace: the count, the entries held and the digest chain's state
 * (the last folded digest and the records not folded yet), all plain strings and numbers.
 */
export interface TraceState {
  readonly count: number
  readonly held: readonly Readonly<Record<string, unknown>>[]
  readonly chain: string
  readonly pending: string
}

/**
 * The in-process form of {@link TraceState} (`fork`): the held entries' parts (kinds, data, times
 * and the entry objects made so far) are shared, not serialised; the arrays are new.
 */
export interface TraceCopy {
  readonly count: number
  readonly first: number
  readonly kinds: readonly string[]
  readonly datas: readonly unknown[]
  readonly ats: readonly number[]
  readonly made: readonly unknown[]
  readonly chain: string
  readonly pending: string
  /**
   * The digest state after `chain` and the first `length` characters of `pending`, never updated
   * in place (readers update a copy): forks of one simulator share it, so the records they start
   * with are hashed once, not once per fork.
   */
  readonly hashed?: { readonly hash: DigestState; readonly length: number }
  readonly copied: true
}

/** The snapshot part of a trace: what a snapshot saves, a fork copies and a loaded simulator loads. */
export interface TraceInternals {
  save(): TraceState
  copy(): TraceCopy
  load(state: TraceState | TraceCopy): void
}

/**
 * The snapshot part of a trace (internal: the simulator's snapshot, fork and load use it).
 *
 * @example
 * traceInternals(fork.trace).load(traceInternals(sim.trace).copy())
 */
export function traceInternals<M extends object>(trace: Trace<M>): TraceInternals {
  if (!(trace instanceof TraceLog)) throw new TypeError('traceInternals: not a trace made by createTrace')
  return trace
}

/**
 * Makes a trace: an append-only record whose hash covers every entry ever appended.
 *
 * @example
 * const trace = createTrace({ now: () => clock.now, limit: 10_000 })
 */
export function createTrace<M extends object = TraceKinds>(options: TraceOptions): Trace<M> {
  // The declared kinds are a compile-time view: at runtime every entry is the same plain record.
  return new TraceLog(options) as unknown as Trace<M>
}
