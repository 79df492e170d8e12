import type { VNode } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { useVirtualWindow } from './virtual-window.js'

/**
 * What a window route answers: how many rows match, how many there are, and the rows from the
 * offset asked, newest first.
 *
 * @example
 * const answer: WindowAnswer<RequestJson> = await adminGet('/requests?offset=0&limit=50')
 */
export interface WindowAnswer<T> {
  readonly total: number
  readonly count: number
  readonly data: readonly T[]
}

/**
 * Options of {@link useServerWindow}.
 *
 * @example
 * useServerWindow({ rowHeight: 33, read, filters: '5xx', changes: live.changes, resets: live.resets, stable: true })
 */
export interface ServerWindowOptions<T, A extends WindowAnswer<T>> {
  readonly rowHeight: number
  /** Reads `limit` rows from `offset` (newest first) with the page's filters. */
  readonly read: (offset: number, limit: number) => Promise<A>
  /** The filters as one key: when it changes, the list starts over at the top. */
  readonly filters: string
  /** The live stream's counters: a change rereads the counts, a reset starts over. */
  readonly changes: number
  readonly resets: number
  /**
   * True when a row, once read, never changes and keeps its place counted from the oldest (a
   * request): a change reads only the rows added. False (an event, whose deliveries move on): a
   * change rereads the rows in view.
   */
  readonly stable: boolean
}

/** Rows read beyond the view in the direction it moves, so a scroll finds them read. */
const AHEAD = 40
/** Most rows one read asks for (the server's limit is higher). */
const MAX_READ = 200
/** Rows kept read; beyond it, those farthest from the view are dropped. */
const KEEP = 3000

/** How far the view is: the first row in it and one past the last (when there are `total`). */
function viewOf(box: HTMLElement | null, rowHeight: number, total: number) {
  const top = box?.scrollTop ?? 0
  const height = box?.clientHeight || 800
  return { start: Math.floor(top / rowHeight), end: Math.min(total, Math.ceil((top + height) / rowHeight)) }
}

/**
 * What reads a list's windows: the rows read by their place from the oldest, the total, and one
 * read at a time (a read asked for while one runs is made after it).
 */
class WindowReader<T, A extends WindowAnswer<T>> {
  readonly kept = new Map<number, T>()
  #total = 0
  #generation = 0
  #fresh = true
  #recount = false
  #busy = false
  #again = false

  constructor(
    private readonly box: { readonly current: HTMLElement | null },
    private readonly options: () => ServerWindowOptions<T, A>,
    private readonly show: (answer: A) => void,
    private readonly fail: (message: string | undefined) => void,
  ) {}

  /** Forgets every row read and reads the top of the list afresh (new filters, a reset). */
  restart(): void {
    this.#generation++
    this.kept.clear()
    this.#total = 0
    this.#fresh = true
    if (this.box.current !== null) this.box.current.scrollTop = 0
    void this.pump()
  }

  /** The live stream said something changed: read the counts (and, for changing rows, the view). */
  changed(): void {
    this.#recount = true
    void this.pump()
  }

  /** Reads until the view is read, one read at a time; asked again while reading, it goes on. */
  async pump(): Promise<void> {
    if (this.#busy) {
      this.#again = true
      return
    }
    this.#busy = true
    try {
      let more = true
      while (more || this.#again) {
        this.#again = false
        more = await this.#step()
      }
      this.fail(undefined)
    } catch (e) {
      this.fail((e as Error).message)
    } finally {
      this.#busy = false
    }
  }

  /** One read: the view afresh, the counts alone, or the rows in view not read yet. */
  async #step(): Promise<boolean> {
    const { read, rowHeight, stable } = this.options()
    const gen = this.#generation
    if (this.#fresh || (this.#recount && !stable)) {
      const replace = !this.#fresh
      this.#fresh = false
      this.#recount = false
      const view = viewOf(this.box.current, rowHeight, Number.MAX_SAFE_INTEGER)
      const offset = Math.max(0, view.start - AHEAD)
      const got = await read(offset, Math.min(MAX_READ, view.end - offset + AHEAD))
      return gen === this.#generation && this.#accept(got, offset, replace)
    }
    if (this.#recount) {
      this.#recount = false
      const got = await read(0, 0)
      return gen === this.#generation && this.#accept(got, 0, false)
    }
    const view = viewOf(this.box.current, rowHeight, this.#total)
    const missing = this.#missing(view.start, view.end)
    if (missing === undefined) return false
    // Read ahead on the side the view is moving to (the side whose edge is missing).
    const offset = missing.first === view.start ? Math.max(0, missing.first - AHEAD) : missing.first
    const end = missing.last === view.end - 1 ? missing.last + 1 + AHEAD : missing.last + 1
    const got = await read(offset, Math.min(MAX_READ, end - offset))
    if (gen !== this.#generation) return true
    this.#prune(view.start)
    return this.#accept(got, offset, false)
  }

  /** The first and last rows of the view not read yet. */
  #missing(start: number, end: number): { first: number; last: number } | undefined {
    let first = -1
    let last = -1
    for (let i = start; i < end; i++) {
      if (this.kept.has(this.#total - 1 - i)) continue
      if (first === -1) first = i
      last = i
    }
    return first === -1 ? undefined : { first, last }
  }

  /** Takes an answer read at `offset`: its rows by their place from the oldest, the new total. */
  #accept(got: A, offset: number, replace: boolean): boolean {
    const { rowHeight, stable } = this.options()
    const box = this.box.current
    const grown = got.total - this.#total
    // Newer rows go above: a reader scrolled down keeps the rows they were reading in place.
    if (stable && grown > 0 && this.#total > 0 && box !== null && box.scrollTop > 0) box.scrollTop += grown * rowHeight
    if (replace) this.kept.clear()
    let added = 0
    got.data.forEach((row, j) => {
      const place = got.total - 1 - (offset + j)
      if (!this.kept.has(place)) added++
      this.kept.set(place, row)
    })
    this.#total = got.total
    this.show(got)
    return added > 0 || grown !== 0
  }

  /** Drops the rows read farthest from the view once too many are kept. */
  #prune(start: number): void {
    if (this.kept.size <= KEEP) return
    const here = this.#total - 1 - start
    for (const place of this.kept.keys()) if (Math.abs(place - here) > KEEP / 2) this.kept.delete(place)
  }
}

/**
 * A long list read from the server one window at a time: only the rows in view (and a few beyond)
 * are drawn, between spacers that keep the scroll bar true, and only the rows about to be drawn
 * are read; new rows (the live stream) are read alone, and a reader scrolled down keeps seeing the
 * same rows. Rows are kept by their place counted from the oldest, so the rows already read stay
 * right when newer ones arrive. `rows()` are the rows to draw with their index (newest first),
 * each undefined while it is being read.
 *
 * @example
 * const list = useServerWindow({ rowHeight: 33, read, filters, changes: live.changes, resets: live.resets, stable: true })
 * list.rows().map(([i, row]) => ...)
 */
export function useServerWindow<T, A extends WindowAnswer<T>>(options: ServerWindowOptions<T, A>) {
  const [answer, setAnswer] = useState<A | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const latest = useRef(options)
  latest.current = options
  const win = useVirtualWindow(answer?.total ?? 0, options.rowHeight)
  const reader = useRef<WindowReader<T, A> | null>(null)
  reader.current ??= new WindowReader<T, A>(win.box, () => latest.current, setAnswer, setError)
  const r = reader.current
  useEffect(() => r.restart(), [options.filters, options.resets])
  useEffect(() => r.changed(), [options.changes])
  useEffect(() => void r.pump(), [win.start, win.end])
  return {
    ...win,
    answer,
    error,
    rows: (): [number, T | undefined][] => {
      const out: [number, T | undefined][] = []
      for (let i = win.start; i < win.end; i++) out.push([i, r.kept.get((answer?.total ?? 0) - 1 - i)])
      return out
    },
  }
}

/**
 * Draws each row once: the row's element is kept with the row read (and whether it was selected),
 * and the same element given back on the next frame lets the UI library skip it, so a scroll
 * draws only the rows that came into view.
 *
 * @example
 * const drawn = useDrawnRows()
 * drawn(row, selected, () => html`<${Row} row=${row} selected=${selected} />`)
 */
export function useDrawnRows(): (row: object, selected: boolean, draw: () => VNode) => VNode {
  const kept = useRef(new WeakMap<object, { selected: boolean; node: VNode }>())
  return (row, selected, draw) => {
    const was = kept.current.get(row)
    if (was !== undefined && was.selected === selected) return was.node
    const node = draw()
    kept.current.set(row, { selected, node })
    return node
  }
}
