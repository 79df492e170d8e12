import { canonicalJson } from './canonical-json.js'
import type { TraceCopy, TraceInternals, TraceOptions, TraceState } from './trace.js'
import { type DigestState, digestStateOf, FOLD_AT, HASH_STEP, traceDigest } from './trace-digest.js'
import { traceRecord } from './trace-record.js'

/** The untyped view the trace's own code works on: every kind, any data. */
interface Entry {
  readonly seq: number
  readonly at: number
  readonly kind: string
  readonly data: Readonly<Record<string, unknown>>
}

/** What `copy()` last handed out, valid while no entry was appended since (`count` unchanged). */
interface SharedState {
  readonly hash: DigestState
  readonly length: number
  readonly count: number
}

/**
 * The trace `createTrace` makes, untyped (the declared kinds are a compile-time view: at runtime
 * every entry is the same plain record), with its snapshot part (`save`, `copy`, `load`).
 *
 * @example
 * const trace = new TraceLog({ now: () => clock.now })
 * trace.append('request', { method: 'GET' })
 * trace.hash() // 64 hex characters
 */
export class TraceLog implements TraceInternals {
  readonly #options: TraceOptions
  readonly #limit: number
  // Held entries as parallel arrays (kind, data, time), their entry objects made when first read
  // (`made` covers a prefix of them): a run nobody reads keeps two references and an unboxed number
  // per entry, not an entry object and a boxed time that every young-generation GC must copy.
  #first = 0
  #kinds: string[] = []
  #datas: Readonly<Record<string, unknown>>[] = []
  #ats: number[] = []
  #made: Entry[] = []
  // Set by the first read: from then on each appended entry is kept as made (readers read again).
  #read = false
  #chain = ''
  // The records not folded yet (`pending` of the state) in two parts: `hashedText`, which `hashed`
  // (a digest state over `chain` and it) covers, and `fresh`, the records since. A digest reads
  // only `fresh`, so the records a fork starts with are never copied or hashed again; and `fresh`
  // is hashed every few thousand characters, so no long chain of small strings waits for the fold
  // (surviving young-generation collections on the way). Hashing in steps gives the same digest.
  #hashedText = ''
  #fresh = ''
  #hashed: DigestState | undefined
  // `hashed` is shared (a fork's copy, or handed out by `copy()`): updated only after copying.
  #hashedShared = false
  #shared: SharedState | undefined
  readonly #listeners = new Set<(entry: Entry) => void>()
  #count = 0

  constructor(options: TraceOptions) {
    this.#options = options
    this.#limit = options.limit ?? Number.POSITIVE_INFINITY
    // Users take methods off `sim.trace` (`const { hash } = sim.trace`, `entries` as a callback);
    // they work detached, as they did when the trace was an object of closures.
    this.append = this.append.bind(this)
    this.entries = this.entries.bind(this)
    this.filter = this.filter.bind(this)
    this.hash = this.hash.bind(this)
    this.toJsonl = this.toJsonl.bind(this)
    this.subscribe = this.subscribe.bind(this)
  }

  append(kind: string, data: Record<string, unknown>, raw?: Readonly<Record<string, string>>): Entry {
    const seq = this.#count++
    const at = this.#options.now()
    const record = traceRecord(seq, at, kind, data, raw)
    // Object.assign, not a spread and added members: on node 20 that costs microseconds per entry.
    const full = raw === undefined ? data : Object.assign({}, data, raw)
    const entry: Entry = { seq, at, kind, data: full }
    this.#hashRecord(record)
    const kinds = this.#kinds
    // Someone reads the entries (every held one is made): this one is kept as made.
    if (this.#read && this.#made.length === kinds.length) this.#made.push(entry)
    kinds.push(kind)
    this.#datas.push(full)
    this.#ats.push(at)
    // Trim in batches: splicing on every append would cost O(limit) per entry.
    if (kinds.length >= 2 * this.#limit + 64) this.#trim()
    for (const l of this.#listeners) l(entry)
    return entry
  }

  /**
   * Records are folded in batches: each digest crosses into native code. Every record ends with a
   * newline, so joining records never joins the halves of a surrogate pair.
   */
  #hashRecord(record: string): void {
    this.#fresh += `${record}\n`
    if (this.#hashedText.length + this.#fresh.length >= FOLD_AT) {
      this.#chain = this.hash()
      this.#hashedText = ''
      this.#fresh = ''
      this.#hashed = undefined
    } else if (this.#fresh.length >= HASH_STEP) {
      let hashed = this.#hashed
      if (hashed === undefined) hashed = digestStateOf(this.#chain)
      else if (this.#hashedShared) hashed = hashed.copy()
      this.#hashed = hashed
      this.#hashedShared = false
      hashed.update(this.#fresh)
      this.#hashedText += this.#fresh
      this.#fresh = ''
    }
  }

  #trim(): void {
    const drop = this.#kinds.length - this.#limit
    this.#kinds.splice(0, drop)
    this.#datas.splice(0, drop)
    this.#ats.splice(0, drop)
    this.#made.splice(0, Math.min(drop, this.#made.length))
    this.#first += drop
  }

  /** Every held entry as an object, oldest first (the entries made before are kept and shared). */
  #held(): Entry[] {
    this.#read = true
    const made = this.#made
    for (let i = made.length; i < this.#kinds.length; i++) {
      made.push({
        seq: this.#first + i,
        at: this.#ats[i] as number,
        kind: this.#kinds[i] as string,
        data: this.#datas[i] as Entry['data'],
      })
    }
    return made
  }

  /** Index of the first held entry within the limit (older ones wait for the next trim). */
  #keptFrom(): number {
    return Math.max(0, this.#kinds.length - this.#limit)
  }

  entries(): Entry[] {
    const all = this.#held()
    const from = this.#keptFrom()
    return from > 0 ? all.slice(from) : all
  }

  filter(k: string): Entry[] {
    return this.entries().filter((e) => e.kind === k || e.kind.startsWith(`${k}.`))
  }

  get length(): number {
    return this.#count
  }

  /**
   * The digest of `chain` followed by the pending records, as `traceDigest` computes it. Not folded
   * into the chain: asking for the hash never changes the batches.
   */
  hash(): string {
    if (this.#hashed === undefined) return traceDigest(this.#chain, this.#fresh)
    return this.#hashed.copy().update(this.#fresh).digest('hex')
  }

  toJsonl(): string {
    return this.entries()
      .map((e) => `${canonicalJson(e)}\n`)
      .join('')
  }

  subscribe(listener: (entry: Entry) => void): () => boolean {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** A digest state over `chain` and all pending records, shared by the copies made until the next append. */
  #sharedState(): SharedState {
    let shared = this.#shared
    if (shared === undefined || shared.count !== this.#count) {
      const hash: DigestState = this.#hashed === undefined ? digestStateOf(this.#chain) : this.#hashed.copy()
      hash.update(this.#fresh)
      shared = { hash, length: this.#hashedText.length + this.#fresh.length, count: this.#count }
      this.#shared = shared
    }
    return shared
  }

  /** Plain records read off the arrays: a snapshot makes no entry object the trace would keep. */
  save(): TraceState {
    const held: Readonly<Record<string, unknown>>[] = []
    for (let i = this.#keptFrom(); i < this.#kinds.length; i++) {
      held.push({
        seq: this.#first + i,
        at: this.#ats[i] as number,
        kind: this.#kinds[i] as string,
        data: this.#datas[i] as Entry['data'],
      })
    }
    return { count: this.#count, held, chain: this.#chain, pending: this.#hashedText + this.#fresh }
  }

  /**
   * Copies of the parallel arrays (the last `limit` entries), nothing serialised: a fork of a
   * simulator holding many entries costs a few array copies.
   */
  copy(): TraceCopy {
    const from = this.#keptFrom()
    return {
      count: this.#count,
      first: this.#first + from,
      kinds: this.#kinds.slice(from),
      datas: this.#datas.slice(from),
      ats: this.#ats.slice(from),
      made: this.#made.slice(from),
      chain: this.#chain,
      pending: this.#hashedText + this.#fresh,
      // Only worth sharing when there is something to hash (a prepared simulator forked per run).
      ...(this.#hashedText.length + this.#fresh.length > 0 ? { hashed: this.#sharedState() } : {}),
      copied: true,
    }
  }

  load(state: TraceState | TraceCopy): void {
    this.#count = state.count
    if ('copied' in state) {
      // A fork's copy holds new arrays made for this load: taken as they are.
      this.#first = state.first
      this.#kinds = state.kinds as string[]
      this.#datas = state.datas as Entry['data'][]
      this.#ats = state.ats as number[]
      this.#made = state.made as Entry[]
    } else this.#hold(state.held as unknown as Entry[])
    this.#chain = state.chain
    const given = 'copied' in state ? state.hashed : undefined
    this.#hashed = given?.hash
    this.#hashedShared = true
    const pending = state.pending
    const length = given?.length ?? 0
    // A copy is usually hashed to its end: then nothing is sliced (which would copy it).
    this.#hashedText = length === pending.length ? pending : pending.slice(0, length)
    this.#fresh = length === pending.length ? '' : pending.slice(length)
    this.#shared = undefined
  }

  #hold(entries: readonly Entry[]): void {
    this.#made = entries.slice()
    this.#kinds = this.#made.map((e) => e.kind)
    this.#datas = this.#made.map((e) => e.data)
    this.#ats = this.#made.map((e) => e.at)
    this.#first = this.#made[0]?.seq ?? this.#count
  }
}
