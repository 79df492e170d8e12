import { METER_EVENT_IDENTIFIER_WINDOW_MS } from '#catalogue/rules.js'

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
 * index.take('evt-1', clock.now)           // true: it was free
 * index.has('evt-1', clock.now)            // true
 * index.take('evt-1', clock.now + DAY)     // true again: the 24 hours have passed
 */
export class IdentifierIndex {
  private readonly seen = new Set<string>()
  private ids: string[] = []
  private times: number[] = []
  private head = 0

  /** Identifiers currently remembered. */
  /** The identifiers still in the window and their times, for a snapshot. */
  save(): { ids: string[]; times: number[] } {
    return { ids: this.ids.slice(this.head), times: this.times.slice(this.head) }
  }

  static load(saved: { ids: readonly string[]; times: readonly number[] }): IdentifierIndex {
    const i = new IdentifierIndex()
    i.ids = saved.ids.slice()
    i.times = saved.times.slice()
    for (const id of saved.ids) i.seen.add(id)
    return i
  }

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
   * Takes `id` at `now` unless it was taken in the last 24 hours: true when it was free. One set
   * operation on the common path (a new identifier), which is the stream's hot loop.
   */
  take(id: string, now: number): boolean {
    const seen = this.seen
    const before = seen.size
    seen.add(id)
    if (seen.size === before) {
      // Taken, unless its 24 hours ran out since the last sweep.
      this.sweep(now)
      if (seen.has(id)) return false
      seen.add(id)
    }
    this.ids.push(id)
    this.times.push(now)
    return true
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
      this.head = 0
    } else if (head > 4096 && head * 2 > n) {
      this.ids = ids.slice(head)
      this.times = times.slice(head)
      this.head = 0
    } else {
      this.head = head
    }
  }
}
