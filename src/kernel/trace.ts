import { createHash, type Hash } from 'node:crypto'
import { canonicalJson } from './canonical-json.js'
import { Sha256, type Sha256State } from './sha256.js'
import type { TraceKind, TraceKinds } from './trace-kinds.js'

export type { TraceKind, TraceKinds, TraceKindsIn } from './trace-kinds.js'

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
 * The append-only record of everything a simulation did. Every entry is folded into a running
 * SHA-256 as it is appended (in batches of records; `hash()` folds the rest first), so `hash()` is
 * cheap at any point and stays exact even when `limit` lets old entries fall out of memory on long
 * runs.
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

/** The untyped view the trace's own code works on: every kind, any data. */
interface Entry {
  readonly seq: number
  readonly at: number
  readonly kind: string
  readonly data: Readonly<Record<string, unknown>>
}

export interface TraceOptions {
  now: () => number
  /** Keep at most this many entries in memory; the hash still covers all of them. */
  limit?: number
  /**
   * With `limit`: fold entries into a resumable TypeScript SHA-256 before they are dropped, so a
   * JSON snapshot can carry the digest. It costs a second hash of every trimmed entry (large
   * bodies included), so only runs that will be saved as JSON (`serve --state`) ask for it.
   */
  resumable?: boolean
}

/**
 * What a snapshot carries of a trace: the count, the entries held and the running digest's state.
 * In process (`fork`) the digest is a copy of the live hasher; in a JSON snapshot it is the state
 * of a TypeScript SHA-256 over the same bytes (see `sha256.ts`).
 */
export interface TraceState {
  readonly count: number
  readonly held: readonly Readonly<Record<string, unknown>>[]
  readonly sha256: Sha256State
}

/** The in-process form of {@link TraceState}: entries and the hasher are copied, not serialised. */
export interface TraceCopy {
  readonly count: number
  readonly held: readonly unknown[]
  readonly hasher: Hash | Sha256
  readonly shadow: Sha256 | undefined
  readonly shadowFed: number
}

interface TraceInternals {
  save(): TraceState
  copy(): TraceCopy
  load(state: TraceState | TraceCopy): void
}

const internals = new WeakMap<object, TraceInternals>()

/** The snapshot part of a trace (internal: the simulator's snapshot, fork and load use it). */
export function traceInternals<M extends object>(trace: Trace<M>): TraceInternals {
  const i = internals.get(trace)
  if (i === undefined) throw new TypeError('traceInternals: not a trace made by createTrace')
  return i
}

// The names of an entry's `raw` members, so a snapshot can rebuild the exact bytes hashed.
const RAW = Symbol('raw')

function recordOf(e: Entry): string {
  const names = (e as Entry & { [RAW]?: readonly string[] })[RAW]
  if (names === undefined) return JSON.stringify({ seq: e.seq, at: e.at, kind: e.kind, data: e.data })
  const data: Record<string, unknown> = {}
  const raw = new Set(names)
  for (const k of Object.keys(e.data)) if (!raw.has(k)) data[k] = e.data[k]
  let record = JSON.stringify({ seq: e.seq, at: e.at, kind: e.kind, data })
  for (const name of names) {
    const text = String(e.data[name] ?? '')
    record += `\u0000${name}\u0000${text.length}\u0000${text}`
  }
  return record
}

/** Characters of records gathered before they are folded into the hash. */
const FLUSH_AT = 64 * 1024

export function createTrace<M extends object = TraceKinds>(options: TraceOptions): Trace<M> {
  let held: Entry[] = []
  // Native while the run never left this process; a resumable TypeScript SHA-256 after a load
  // from a JSON snapshot. Both digest the same bytes, so `hash()` is the same either way.
  let hasher: Hash | Sha256 = createHash('sha256')
  // A TypeScript SHA-256 that trails the native one, fed only when a JSON snapshot is taken (or
  // entries are trimmed), so runs that never snapshot pay nothing: `shadowFed` entries are in it.
  let shadow: Sha256 | undefined
  let shadowFed = 0
  const listeners = new Set<(entry: Entry) => void>()
  let count = 0
  let pending = ''
  const flush = () => {
    if (pending === '') return
    hasher.update(pending)
    pending = ''
  }
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  const resumable = options.resumable === true
  // Entries were trimmed without feeding the resumable digest: a JSON snapshot cannot resume it.
  let dropped = false

  function feedShadow(upTo: number): void {
    if (hasher instanceof Sha256) return
    if (dropped) {
      throw new Error(
        'snapshot: this simulator trims its trace (traceLimit) without resumableTrace: true, so a JSON snapshot cannot carry its hash; create it with resumableTrace: true (fork() works either way)',
      )
    }
    shadow ??= new Sha256()
    const first = count - held.length
    if (shadowFed < first) {
      throw new Error('snapshot: trace entries were dropped before the snapshot could read them')
    }
    for (let i = shadowFed - first; i < upTo - first; i++) shadow.update(`${recordOf(held[i] as Entry)}\n`)
    shadowFed = Math.max(shadowFed, upTo)
  }
  const trace = {
    append(kind: string, data: Record<string, unknown>, raw?: Readonly<Record<string, string>>): Entry {
      const seq = count++
      const at = options.now()
      // The hash folds native JSON: deterministic for the same code path and inputs (keys keep
      // insertion order) and several times cheaper than sorting keys on every append. `toJsonl()`
      // still writes the canonical form for files and people.
      let record = JSON.stringify({ seq, at, kind, data })
      let full = data
      if (raw !== undefined) {
        full = { ...data }
        for (const name in raw) {
          const text = raw[name] ?? ''
          full[name] = text
          record += `\u0000${name}\u0000${text.length}\u0000${text}`
        }
      }
      const entry: Entry =
        raw === undefined ? { seq, at, kind, data: full } : ({ seq, at, kind, data: full, [RAW]: Object.keys(raw) } as Entry)
      // Records are folded into the hash in batches: each update crosses into native code, and
      // SHA-256 of the same bytes is the same however they are chunked. Every record ends with a
      // newline, so joining records never joins the halves of a surrogate pair.
      pending += `${record}\n`
      if (pending.length >= FLUSH_AT) flush()
      held.push(entry)
      // Trim in batches: splicing on every append would cost O(limit) per entry. Entries about
      // to be dropped are folded into the snapshot digest first (long runs with a limit only).
      if (held.length >= 2 * limit + 64) {
        if (resumable) feedShadow(count - limit)
        else dropped = true
        held.splice(0, held.length - limit)
      }
      for (const l of listeners) l(entry)
      return entry
    },
    entries: () => (held.length > limit ? held.slice(held.length - limit) : held),
    filter: (k: string) => held.filter((e, i) => i >= held.length - limit && (e.kind === k || e.kind.startsWith(`${k}.`))),
    get length() {
      return count
    },
    hash: () => {
      flush()
      return hasher instanceof Sha256 ? hasher.digest() : hasher.copy().digest('hex')
    },
    toJsonl() {
      const kept = held.length > limit ? held.slice(held.length - limit) : held
      return kept.map((e) => `${canonicalJson(e)}\n`).join('')
    },
    subscribe(listener: (entry: Entry) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  internals.set(trace, {
    save() {
      flush()
      let sha: Sha256
      if (hasher instanceof Sha256) sha = hasher
      else {
        feedShadow(count)
        sha = shadow as Sha256
        const native = hasher.copy().digest('hex')
        if (sha.digest() !== native) {
          throw new Error(
            "snapshot: the trace cannot be carried: an entry's data changed after it was appended (trace data must not be mutated)",
          )
        }
      }
      const kept = held.length > limit ? held.slice(held.length - limit) : held
      return { count, held: kept.map((e) => ({ seq: e.seq, at: e.at, kind: e.kind, data: e.data })), sha256: sha.state() }
    },
    copy() {
      flush()
      const kept = held.length > limit ? held.slice(held.length - limit) : held.slice()
      return { count, held: kept, hasher: hasher.copy(), shadow: shadow?.copy(), shadowFed }
    },
    load(state) {
      // The loaded digest replaces this one; records not yet folded belong to the replaced run.
      pending = ''
      count = state.count
      // A fork's copy is a new array made for this load: taken as it is.
      held = 'hasher' in state ? (state.held as Entry[]) : (state.held as readonly unknown[]).map((e) => e as Entry)
      if ('hasher' in state) {
        hasher = state.hasher.copy()
        shadow = state.shadow?.copy()
        shadowFed = state.shadowFed
      } else {
        hasher = Sha256.resume(state.sha256)
        shadow = undefined
        shadowFed = 0
      }
    },
  })
  // The declared kinds are a compile-time view: at runtime every entry is the same plain record.
  return trace as unknown as Trace<M>
}
