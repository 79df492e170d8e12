/**
 * The admission times of one rate-limit key inside its window, oldest first, in a ring buffer that
 * grows only as far as the row's maximum. Times at or before `now - window` are forgotten as soon
 * as the key is touched, so the window slides exactly on virtual time (the 26th request of a second
 * is refused, the next one a second later passes) and memory never exceeds `max` entries per key.
 *
 * @example
 * const log = new SlidingLog()
 * log.admits(0, 1000, 25) // true while fewer than 25 admissions in (now - 1000, now]
 * log.add(0)
 */
// An empty log holds no buffer of its own (a fork loads many logs, mostly short or empty).
const NONE = new Float64Array(0)

export class SlidingLog {
  private buf: Float64Array = NONE
  private head = 0
  private size = 0

  /** Forgets admissions at or before `now - window`; true if another admission fits under `max`. */
  admits(now: number, window: number, max: number): boolean {
    const edge = now - window
    while (this.size > 0 && (this.buf[this.head] as number) <= edge) {
      this.head = (this.head + 1) % this.buf.length
      this.size--
    }
    return this.size < max
  }

  add(now: number): void {
    if (this.size === this.buf.length) this.grow()
    this.buf[(this.head + this.size) % this.buf.length] = now
    this.size++
  }

  /** Time of the newest admission, or -Infinity when empty (for sweeping idle keys). */
  newest(): number {
    return this.size === 0 ? Number.NEGATIVE_INFINITY : (this.buf[(this.head + this.size - 1) % this.buf.length] as number)
  }

  get length(): number {
    return this.size
  }

  /** The times held, oldest first: a snapshot's form of the log. */
  save(): number[] {
    const out: number[] = []
    for (let i = 0; i < this.size; i++) out.push(this.buf[(this.head + i) % this.buf.length] as number)
    return out
  }

  static load(times: readonly number[]): SlidingLog {
    const log = new SlidingLog()
    if (times.length === 0) return log
    // One buffer of the size the adds would have grown it to, filled at once.
    let size = 4
    while (size < times.length) size *= 2
    log.buf = new Float64Array(size)
    log.buf.set(times)
    log.size = times.length
    return log
  }

  private grow(): void {
    const next = new Float64Array(Math.max(4, this.buf.length * 2))
    for (let i = 0; i < this.size; i++) next[i] = this.buf[(this.head + i) % this.buf.length] as number
    this.buf = next
    this.head = 0
  }
}
