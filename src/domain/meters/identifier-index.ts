import { METER_EVENT_IDENTIFIER_WINDOW_MS } from '#catalogue/rules.js'
import type { MinuteBucket } from './aggregates.js'

/**
 * A remembered meter event as an adjustment needs it: the minute buckets it was added to (one
 * meter and customer), its timestamp, and its value (0 until processed; negative once cancelled).
 */
export interface EventRef {
  readonly buckets: Map<number, MinuteBucket> | undefined
  readonly timestamp: number
  readonly value: number
}

/** An index as plain data: per remembered identifier, its time and the event behind it (meter and customer, or null). */
export interface SavedIdentifierIndex {
  readonly ids: readonly string[]
  readonly times: readonly number[]
  readonly refs: readonly (readonly [string, string] | null)[]
  readonly stamps: readonly number[]
  readonly values: readonly number[]
  /** Position of the first saved slot since the index began (positions stay valid across a load). */
  readonly base?: number
}

// The identifier of a released slot: never a real one (identifiers are non-empty).
const RELEASED = ''

/** How long an identifier stays taken: a rolling 24 hours of virtual time. */
export const IDENTIFIER_WINDOW = METER_EVENT_IDENTIFIER_WINDOW_MS

/**
 * The meter event identifiers of one account and mode seen in the last 24 hours of virtual time.
 * A set answers "taken?" in O(1); a FIFO of (identifier, time) in arrival order lets expiry drop the
 * oldest entries in O(1) each, so memory is bounded by 24 hours of traffic and the cost of an
 * insert does not grow with the index. (Deleting from the front of a Map and iterating it would
 * rescan the deleted holes, which grows with the index.) An identifier sits in the set exactly
 * while its one FIFO slot is unswept; `has` sweeps before a positive answer, so an answer is exact
 * to the millisecond, and the set holds no per-entry time (no boxed number per identifier).
 *
 * @example
 * const index = new IdentifierIndex()
 * index.take('evt-1', clock.now)           // 0: it was free (its position)
 * index.has('evt-1', clock.now)            // true
 * index.take('evt-1', clock.now)           // -1: taken
 * index.take('evt-1', clock.now + DAY)     // 1: free again, the 24 hours have passed
 */
export class IdentifierIndex {
  private readonly seen = new Set<string>()
  private ids: string[] = []
  private times: number[] = []
  // Per slot, the processed event behind the identifier (parallel arrays: no object per event).
  private buckets: (Map<number, MinuteBucket> | undefined)[] = []
  private stamps: number[] = []
  private values: number[] = []
  private head = 0
  // Slots dropped from the front of the arrays by compaction: position = offset + array index.
  private offset = 0

  /**
   * The identifiers still in the window, their times and the events behind them, for a snapshot:
   * a bucket map is saved as its meter and customer (`owner`), re-linked on load (`buckets`).
   */
  save(owner: (buckets: Map<number, MinuteBucket>) => { meter: string; customer: string } | undefined): SavedIdentifierIndex {
    const refs: ([string, string] | null)[] = []
    for (let i = this.head; i < this.ids.length; i++) {
      const b = this.buckets[i]
      const o = b === undefined ? undefined : owner(b)
      refs.push(o === undefined ? null : [o.meter, o.customer])
    }
    return {
      ids: this.ids.slice(this.head),
      times: this.times.slice(this.head),
      refs,
      stamps: this.stamps.slice(this.head),
      values: this.values.slice(this.head),
      base: this.offset + this.head,
    }
  }

  static load(
    saved: SavedIdentifierIndex,
    buckets: (meter: string, customer: string) => Map<number, MinuteBucket>,
  ): IdentifierIndex {
    const i = new IdentifierIndex()
    i.ids = saved.ids.slice()
    i.times = saved.times.slice()
    i.buckets = saved.refs.map((r) => (r === null ? undefined : buckets(r[0], r[1])))
    i.stamps = saved.stamps.slice()
    i.values = saved.values.slice()
    i.offset = saved.base ?? 0
    for (const id of saved.ids) if (id !== RELEASED) i.seen.add(id)
    return i
  }

  /** Identifiers currently remembered. */
  get size(): number {
    return this.seen.size
  }

  /** Virtual time of the oldest remembered identifier. */
  get oldest(): number | undefined {
    return this.head < this.times.length ? this.times[this.head] : undefined
  }

  /** Whether `id` was taken in the 24 hours before `now`. */
  has(id: string, now: number): boolean {
    if (!this.seen.has(id)) return false
    this.sweep(now)
    return this.seen.has(id)
  }

  /**
   * Takes `id` at `now` unless it was taken in the last 24 hours: its position (for
   * {@link attachAt} and {@link releaseAt}) when it was free, else -1. One set operation on the
   * common path (a new identifier), which is the stream's hot loop.
   */
  take(id: string, now: number): number {
    const seen = this.seen
    const before = seen.size
    seen.add(id)
    if (seen.size === before) {
      // Taken, unless its 24 hours ran out since the last sweep.
      this.sweep(now)
      if (seen.has(id)) return -1
      seen.add(id)
    }
    const position = this.offset + this.ids.length
    this.ids.push(id)
    this.times.push(now)
    this.buckets.push(undefined)
    this.stamps.push(0)
    this.values.push(0)
    return position
  }

  /** Records the processed event behind the identifier taken at `position` (ignored once swept). */
  attachAt(position: number, buckets: Map<number, MinuteBucket>, timestamp: number, value: number): void {
    const i = position - this.offset
    if (!(i >= this.head && i < this.ids.length)) return
    this.buckets[i] = buckets
    this.stamps[i] = timestamp
    this.values[i] = value
  }

  /**
   * Gives back the identifier taken at `position` (its event failed validation, so it was never
   * accepted): the slot stays until swept but names no identifier.
   */
  releaseAt(position: number): void {
    const i = position - this.offset
    if (!(i >= this.head && i < this.ids.length)) return
    this.seen.delete(this.ids[i] as string)
    this.ids[i] = RELEASED
  }

  /** Slot of a remembered identifier (a scan from the newest: adjustments are rare). */
  private slot(id: string, now: number): number {
    if (!this.has(id, now)) return -1
    const i = this.ids.lastIndexOf(id)
    return i >= this.head ? i : -1
  }

  /**
   * The event behind `id` when it was taken in the 24 hours before `now` (value 0: not processed
   * yet; negative: cancelled), or undefined.
   */
  lookup(id: string, now: number): EventRef | undefined {
    const i = this.slot(id, now)
    if (i < 0) return undefined
    return { buckets: this.buckets[i], timestamp: this.stamps[i] as number, value: this.values[i] as number }
  }

  /** Marks the event behind `id` cancelled (its value negated); false when unknown or not processed. */
  markCancelled(id: string, now: number): boolean {
    const i = this.slot(id, now)
    const value = i < 0 ? 0 : (this.values[i] as number)
    if (value <= 0) return false
    this.values[i] = -value
    return true
  }

  /** The remembered, processed, not cancelled events of one bucket map (a rare scan: `last` after a cancellation). */
  *live(buckets: Map<number, MinuteBucket>): Iterable<{ timestamp: number; value: number; order: number }> {
    for (let i = this.head; i < this.ids.length; i++) {
      if (this.buckets[i] === buckets && (this.values[i] as number) > 0) {
        yield { timestamp: this.stamps[i] as number, value: this.values[i] as number, order: i }
      }
    }
  }

  /** Forgets every identifier taken 24 hours or more before `now`. */
  sweep(now: number): void {
    const { ids, times, seen } = this
    let head = this.head
    const n = times.length
    while (head < n && now - (times[head] as number) >= IDENTIFIER_WINDOW) {
      seen.delete(ids[head] as string)
      head++
    }
    if (head === n) {
      this.ids = []
      this.times = []
      this.buckets = []
      this.stamps = []
      this.values = []
      this.offset += head
      this.head = 0
    } else if (head > 4096 && head * 2 > n) {
      this.ids = ids.slice(head)
      this.times = times.slice(head)
      this.buckets = this.buckets.slice(head)
      this.stamps = this.stamps.slice(head)
      this.values = this.values.slice(head)
      this.offset += head
      this.head = 0
    } else {
      for (let i = this.head; i < head; i++) this.buckets[i] = undefined
      this.head = head
    }
  }
}
