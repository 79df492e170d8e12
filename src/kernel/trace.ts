import { createHash } from 'node:crypto'
import { canonicalJson } from './canonical-json.js'
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
 * The append-only record of everything a simulation did. Every entry's record is folded into a
 * chain of SHA-256 digests as it is appended (see {@link traceDigest}), so `hash()` is cheap at any
 * point and stays exact even when `limit` lets old entries fall out of memory on long runs; the
 * chain's state is two strings, so a snapshot carries it and a fork copies it for nothing.
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
 * A running SHA-256 (node's `Hash`), named here by what the trace uses of it, so the declarations
 * of the package need no node typings.
 */
interface DigestState {
  copy(): DigestState
  update(data: string): DigestState
  digest(encoding: 'hex'): string
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

/**
 * One entry as the digest reads it: `<seq>;<at>;<kind length>:<kind>{`, each member of `data` in order as
 * `<name length>:<name>` and its value (a string as `s<length>:<text>`, a number as `n<text>;`,
 * `t`, `f`, `z` for null, a plain object of strings as `o{...}` with its members so written,
 * anything else as `j<length>:<JSON>`; undefined members are left out, as
 * JSON leaves them), `}`, then each raw member as `\0<name>\0<length>\0<text>`. Length-prefixed, so
 * distinct entries never read the same; several times cheaper than `JSON.stringify` on the small
 * flat records a request appends.
 *
 * @example
 * traceRecord(0, 5, 'http', { status: 200 }, { response: '{}' }) // '0;5;4:http{6:statusn200;}\0response\02\0{}'
 */
export function traceRecord(
  seq: number,
  at: number,
  kind: string,
  data: Readonly<Record<string, unknown>>,
  raw?: Readonly<Record<string, string>>,
): string {
  let record = `${seq};${at};${lengthPrefixed(kind)}{`
  for (const name in data) {
    const value = data[name]
    switch (typeof value) {
      case 'string':
        record += `${lengthPrefixed(name)}s${value.length}:${value}`
        break
      case 'number':
        record += `${lengthPrefixed(name)}n${value};`
        break
      case 'boolean':
        record += `${lengthPrefixed(name)}${value ? 't' : 'f'}`
        break
      case 'undefined':
        break
      default: {
        if (value === null) record += `${lengthPrefixed(name)}z`
        else {
          const strings = stringMembers(value)
          if (strings !== undefined) record += `${lengthPrefixed(name)}o{${strings}}`
          else {
            const json = String(JSON.stringify(value))
            record += `${lengthPrefixed(name)}j${json.length}:${json}`
          }
        }
      }
    }
  }
  record += '}'
  if (raw !== undefined) {
    for (const name in raw) {
      const text = raw[name] ?? ''
      record += `\u0000${name}\u0000${text.length}\u0000${text}`
    }
  }
  return record
}

// Kinds and member names are few and fixed: each `<length>:<name>` is made once, not per record.
// Bounded, in case a caller's names never repeat.
const prefixed = new Map<string, string>()
function lengthPrefixed(name: string): string {
  let text = prefixed.get(name)
  if (text === undefined) {
    text = `${name.length}:${name}`
    if (prefixed.size >= 4096) prefixed.clear()
    prefixed.set(name, text)
  }
  return text
}

/** A plain object whose members are all strings (request headers), length-prefixed; else undefined. */
function stringMembers(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return undefined
  let out = ''
  for (const name of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[name]
    if (typeof member !== 'string') return undefined
    out += `${name.length}:${name}s${member.length}:${member}`
  }
  return out
}

/** Characters of records gathered before they are folded into the chain. */
const FOLD_AT = 64 * 1024
/** Characters of records gathered before they are hashed into the running digest state. */
const HASH_STEP = 8 * 1024

/**
 * The digest the trace keeps: `chain` is the SHA-256 (hex) of the previous `chain` followed by a
 * batch of records, a batch ending at the first record that takes it to 64 Ki characters or more
 * (so the batches, and the digest, depend only on the records); `hash()` is the SHA-256 of the
 * last `chain` followed by the records since. Native hashing, and a state that is two strings:
 * a JSON snapshot carries it, a fork shares it, and nothing is hashed twice.
 *
 * @example
 * traceDigest('', '{"seq":0,...}\n') // 64 hex characters
 */
export function traceDigest(chain: string, records: string): string {
  return createHash('sha256').update(chain).update(records).digest('hex')
}

export function createTrace<M extends object = TraceKinds>(options: TraceOptions): Trace<M> {
  // Held entries as parallel arrays (kind, data, time), their entry objects made when first read
  // (`made` covers a prefix of them): a run nobody reads keeps two references and an unboxed number
  // per entry, not an entry object and a boxed time that every young-generation GC must copy.
  let first = 0
  let kinds: string[] = []
  let datas: Readonly<Record<string, unknown>>[] = []
  let ats: number[] = []
  let made: Entry[] = []
  // Set by the first read: from then on each appended entry is kept as made (readers read again).
  let read = false
  let chain = ''
  // The records not folded yet (`pending` of the state) in two parts: `hashedText`, which `hashed`
  // (a digest state over `chain` and it) covers, and `fresh`, the records since. A digest reads
  // only `fresh`, so the records a fork starts with are never copied or hashed again; and `fresh`
  // is hashed every few thousand characters, so no long chain of small strings waits for the fold
  // (surviving young-generation collections on the way). Hashing in steps gives the same digest.
  let hashedText = ''
  let fresh = ''
  let hashed: DigestState | undefined
  // `hashed` is shared (a fork's copy, or handed out by `copy()`): updated only after copying.
  let hashedShared = false
  // What `copy()` last handed out, valid while no entry was appended since (`count` unchanged).
  let shared: { readonly hash: DigestState; readonly length: number; readonly count: number } | undefined
  /** The digest of `chain` followed by the pending records, as `traceDigest` computes it. */
  function digest(): string {
    if (hashed === undefined) return traceDigest(chain, fresh)
    return hashed.copy().update(fresh).digest('hex')
  }
  /** A digest state over `chain` and all pending records, shared by the copies made until the next append. */
  function sharedState(): { readonly hash: DigestState; readonly length: number } {
    if (shared === undefined || shared.count !== count) {
      const hash: DigestState = hashed === undefined ? createHash('sha256').update(chain) : hashed.copy()
      hash.update(fresh)
      shared = { hash, length: hashedText.length + fresh.length, count }
    }
    return shared
  }
  const listeners = new Set<(entry: Entry) => void>()
  let count = 0
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  /** Every held entry as an object, oldest first (the entries made before are kept and shared). */
  function held(): Entry[] {
    read = true
    for (let i = made.length; i < kinds.length; i++) {
      made.push({ seq: first + i, at: ats[i] as number, kind: kinds[i] as string, data: datas[i] as Entry['data'] })
    }
    return made
  }
  /** Index of the first held entry within the limit (older ones wait for the next trim). */
  const keptFrom = () => Math.max(0, kinds.length - limit)
  const kept = (): Entry[] => {
    const all = held()
    const from = keptFrom()
    return from > 0 ? all.slice(from) : all
  }
  const trace = {
    append(kind: string, data: Record<string, unknown>, raw?: Readonly<Record<string, string>>): Entry {
      const seq = count++
      const at = options.now()
      const record = traceRecord(seq, at, kind, data, raw)
      // Object.assign, not a spread and added members: on node 20 that costs microseconds per entry.
      const full = raw === undefined ? data : Object.assign({}, data, raw)
      const entry: Entry = { seq, at, kind, data: full }
      // Records are folded in batches: each digest crosses into native code. Every record ends
      // with a newline, so joining records never joins the halves of a surrogate pair.
      fresh += `${record}\n`
      if (hashedText.length + fresh.length >= FOLD_AT) {
        chain = digest()
        hashedText = ''
        fresh = ''
        hashed = undefined
      } else if (fresh.length >= HASH_STEP) {
        if (hashed === undefined) hashed = createHash('sha256').update(chain)
        else if (hashedShared) hashed = hashed.copy()
        hashedShared = false
        hashed.update(fresh)
        hashedText += fresh
        fresh = ''
      }
      // Someone reads the entries (every held one is made): this one is kept as made.
      if (read && made.length === kinds.length) made.push(entry)
      kinds.push(kind)
      datas.push(full)
      ats.push(at)
      // Trim in batches: splicing on every append would cost O(limit) per entry.
      if (kinds.length >= 2 * limit + 64) {
        const drop = kinds.length - limit
        kinds.splice(0, drop)
        datas.splice(0, drop)
        ats.splice(0, drop)
        made.splice(0, Math.min(drop, made.length))
        first += drop
      }
      for (const l of listeners) l(entry)
      return entry
    },
    entries: kept,
    filter: (k: string) => kept().filter((e) => e.kind === k || e.kind.startsWith(`${k}.`)),
    get length() {
      return count
    },
    // Not folded into the chain: asking for the hash never changes the batches.
    hash: digest,
    toJsonl() {
      return kept()
        .map((e) => `${canonicalJson(e)}\n`)
        .join('')
    },
    subscribe(listener: (entry: Entry) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  function hold(entries: readonly Entry[]): void {
    made = entries.slice()
    kinds = made.map((e) => e.kind)
    datas = made.map((e) => e.data)
    ats = made.map((e) => e.at)
    first = made[0]?.seq ?? count
  }
  internals.set(trace, {
    // Plain records read off the arrays: a snapshot makes no entry object the trace would keep.
    save: () => {
      const held: Readonly<Record<string, unknown>>[] = []
      for (let i = keptFrom(); i < kinds.length; i++) {
        held.push({ seq: first + i, at: ats[i] as number, kind: kinds[i] as string, data: datas[i] as Entry['data'] })
      }
      return { count, held, chain, pending: hashedText + fresh }
    },
    // Copies of the parallel arrays (the last `limit` entries), nothing serialised: a fork of a
    // simulator holding many entries costs a few array copies.
    copy: () => {
      const from = keptFrom()
      return {
        count,
        first: first + from,
        kinds: kinds.slice(from),
        datas: datas.slice(from),
        ats: ats.slice(from),
        made: made.slice(from),
        chain,
        pending: hashedText + fresh,
        // Only worth sharing when there is something to hash (a prepared simulator forked per run).
        ...(hashedText.length + fresh.length > 0 ? { hashed: sharedState() } : {}),
        copied: true,
      }
    },
    load(state) {
      count = state.count
      if ('copied' in state) {
        // A fork's copy holds new arrays made for this load: taken as they are.
        first = state.first
        kinds = state.kinds as string[]
        datas = state.datas as Entry['data'][]
        ats = state.ats as number[]
        made = state.made as Entry[]
      } else hold(state.held as unknown as Entry[])
      chain = state.chain
      const given = 'copied' in state ? state.hashed : undefined
      hashed = given?.hash
      hashedShared = true
      const pending = state.pending
      const length = given?.length ?? 0
      // A copy is usually hashed to its end: then nothing is sliced (which would copy it).
      hashedText = length === pending.length ? pending : pending.slice(0, length)
      fresh = length === pending.length ? '' : pending.slice(length)
      shared = undefined
    },
  })
  // The declared kinds are a compile-time view: at runtime every entry is the same plain record.
  return trace as unknown as Trace<M>
}
