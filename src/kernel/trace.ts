import { createHash, type Hash } from 'node:crypto'
import { canonicalJson } from './canonical-json.js'

/**
 * One record of the trace: what happened (`kind`), at which virtual time (`at`, epoch ms), in
 * which order (`seq`), with its details.
 */
export interface TraceEntry {
  readonly seq: number
  readonly at: number
  readonly kind: string
  readonly data: Readonly<Record<string, unknown>>
}

/**
 * The append-only record of everything a simulation did. Every entry is folded into a running
 * SHA-256 at the moment it is appended, so `hash()` is cheap at any point and stays exact even when
 * `limit` lets old entries fall out of memory on long runs.
 *
 * @example
 * const trace = createTrace({ now: () => clock.now })
 * trace.append('request', { method: 'GET', path: '/v1/balance' })
 * trace.hash() // 64 hex characters, equal for equal runs
 */
export interface Trace {
  /**
   * Appends an entry. `raw` members (large strings such as request and response bodies) are hashed
   * as length-prefixed bytes rather than through JSON, which keeps hot paths cheap; they are merged
   * into `data` for inspection.
   */
  append(kind: string, data: Record<string, unknown>, raw?: Readonly<Record<string, string>>): TraceEntry
  /** Entries still held in memory, oldest first. */
  entries(): readonly TraceEntry[]
  /** Entries of one kind (or kinds starting with `prefix.`). */
  filter(kindOrPrefix: string): TraceEntry[]
  /** Total number of entries ever appended. */
  readonly length: number
  hash(): string
  /** Canonical JSON lines of the held entries. */
  toJsonl(): string
  subscribe(listener: (entry: TraceEntry) => void): () => void
}

export interface TraceOptions {
  now: () => number
  /** Keep at most this many entries in memory; the hash still covers all of them. */
  limit?: number
}

export function createTrace(options: TraceOptions): Trace {
  const held: TraceEntry[] = []
  const hasher: Hash = createHash('sha256')
  const listeners = new Set<(entry: TraceEntry) => void>()
  let count = 0
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  return {
    append(kind, data, raw) {
      const seq = count++
      const at = options.now()
      // The hash folds native JSON: deterministic for the same code path and inputs (keys keep
      // insertion order) and several times cheaper than sorting keys on every append. `toJsonl()`
      // still writes the canonical form for files and people.
      // One update per entry: each call into the hash crosses into native code.
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
      const entry: TraceEntry = { seq, at, kind, data: full }
      hasher.update(`${record}\n`)
      held.push(entry)
      // Trim in batches: splicing on every append would cost O(limit) per entry.
      if (held.length >= 2 * limit + 64) held.splice(0, held.length - limit)
      for (const l of listeners) l(entry)
      return entry
    },
    entries: () => (held.length > limit ? held.slice(held.length - limit) : held),
    filter: (k) => held.filter((e, i) => i >= held.length - limit && (e.kind === k || e.kind.startsWith(`${k}.`))),
    get length() {
      return count
    },
    hash: () => hasher.copy().digest('hex'),
    toJsonl() {
      const kept = held.length > limit ? held.slice(held.length - limit) : held
      return kept.map((e) => `${canonicalJson(e)}\n`).join('')
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
