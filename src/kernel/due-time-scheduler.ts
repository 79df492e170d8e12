import type { Clock } from './clock.js'
import { fromPlain, toPlain } from './plain.js'
import { PriorityQueue } from './priority-queue.js'
import type { SavedTask, Scheduler, SchedulerOptions, Task, TaskKind, UpcomingTask } from './scheduler.js'
import { clampDelay, type HorizonProbe, watchHorizon } from './watch-horizon.js'

interface Entry extends Task {
  /** A closure task's work; unset for a task of a defined kind, which `def` runs with `args`. */
  run: (() => void | Promise<unknown>) | undefined
  /** Set for tasks of a defined kind: pending work that is data, so a snapshot can carry it. */
  readonly kind?: string | undefined
  args?: unknown
  /** The definition of a kind's task: no closure is made per task. */
  def?: Definition | undefined
}

interface Definition {
  run(args: unknown): void | Promise<unknown>
  restored?: ((task: Task, args: unknown) => void) | undefined
}

type PushKind = (due: number, kind: string, def: Definition, args: unknown) => Task

const NOOP = () => {}

/**
 * A defined kind's handle: its methods are on the prototype, so a simulator (one per property run)
 * defining dozens of kinds makes no closures for them.
 */
class KindHandle<A> implements TaskKind<A> {
  readonly #kind: string
  readonly #def: Definition
  readonly #push: PushKind
  readonly #clock: Clock
  constructor(kind: string, def: Definition, push: PushKind, clock: Clock) {
    this.#kind = kind
    this.#def = def
    this.#push = push
    this.#clock = clock
  }
  at(due: number, args: A): Task {
    return this.#push(due, this.#kind, this.#def, args)
  }
  after(delay: number, args: A): Task {
    return this.#push(this.#clock.now + Math.max(0, delay), this.#kind, this.#def, args)
  }
}

/**
 * The {@link Scheduler} `createScheduler` makes: a due-time priority queue with one clock timer
 * armed at the earliest due time, and a second one at the latest (its horizon).
 *
 * @example
 * const scheduler: Scheduler = new DueTimeScheduler(clock, { ownsClock: true })
 * scheduler.after(1000, 'meter.process', () => process())
 */
export class DueTimeScheduler implements Scheduler {
  readonly #clock: Clock
  readonly #onTaskFailed: (label: string, error: unknown) => void
  readonly #queue = new PriorityQueue<Entry>()
  readonly #inflight = new Set<Promise<unknown>>()
  #live = 0
  #armedAt = Number.POSITIVE_INFINITY
  #timer: ReturnType<Clock['setTimeout']> | undefined
  // A second timer at the latest due time makes `clock.runToLastAsync()` reach all pending work,
  // while only two timers ever sit in fake-timers (whose next-timer search scans them all). A
  // max-heap (lazy deletion) keeps that time exact when the latest task is cancelled or run, so
  // the clock is never dragged to a time no work is due at.
  readonly #latest = new PriorityQueue<Entry>()
  #horizonAt = Number.NEGATIVE_INFINITY
  #horizon: ReturnType<Clock['setTimeout']> | undefined
  // When the armed timers fire: a clamped timer fires before its due time, and `advance` may jump
  // the clock past it, leaving fake-timers a timer behind the clock that no tick ever fires.
  #timerCallAt = Number.POSITIVE_INFINITY
  #horizonCallAt = Number.POSITIVE_INFINITY
  // While `advance` jumps the clock itself, re-arming the fake timer at every step is wasted work.
  #deferArm = false
  readonly #kinds = new Map<string, Definition>()
  // Made once per scheduler, not per timer armed or kind defined.
  readonly #fire = () => this.#fireDue()
  readonly #wake = () => {
    this.#horizon = undefined
    this.#horizonAt = Number.NEGATIVE_INFINITY
    this.#fireDue()
  }
  readonly #pushKind: PushKind = (due, kind, def, args) => this.#pushKindEntry(due, kind, def, args)
  // The armed horizon timer holds the scheduler (and so this probe), so it lives exactly while
  // it can say the horizon is ahead.
  readonly #probe: HorizonProbe = { ahead: () => this.#horizon !== undefined && this.#horizonAt > this.#clock.now }

  constructor(clock: Clock, options: SchedulerOptions = {}) {
    this.#clock = clock
    this.#onTaskFailed = options.onTaskFailed ?? NOOP
    watchHorizon(clock, this.#probe, options.ownsClock === true)
  }

  // Run and cancelled tasks leave `latest` only when they reach its top, which the newest task
  // may never let them do: rebuild it whenever most of it is dead, so memory follows live work.
  #compactLatest(): void {
    const latest = this.#latest
    if (latest.size <= 2 * this.#live + 1024) return
    const keep: Entry[] = []
    for (let item = latest.pop(); item !== undefined; item = latest.pop()) if (!item.value.cancelled) keep.push(item.value)
    for (const entry of keep) latest.push(-entry.due, entry)
  }

  #refreshHorizon(): void {
    this.#compactLatest()
    const latest = this.#latest
    const clock = this.#clock
    while (latest.peek()?.value.cancelled === true) latest.pop()
    const top = latest.peek()
    const due = top === undefined ? Number.NEGATIVE_INFINITY : top.value.due
    if (due === this.#horizonAt && !(this.#horizon !== undefined && this.#horizonCallAt < clock.now)) return
    if (this.#horizon !== undefined) clock.clearTimeout(this.#horizon)
    this.#horizon = undefined
    this.#horizonAt = due
    if (top === undefined) return
    this.#horizonCallAt = clock.now + clampDelay(due - clock.now)
    this.#horizon = clock.setTimeout(this.#wake, clampDelay(due - clock.now))
  }

  #arm(): void {
    if (this.#deferArm) return
    this.#armEarliest()
    this.#refreshHorizon()
  }

  #armEarliest(): void {
    this.#dropCancelled()
    const clock = this.#clock
    const top = this.#queue.peek()
    const due = top === undefined ? Number.POSITIVE_INFINITY : top.due
    if (due === this.#armedAt && !(this.#timer !== undefined && this.#timerCallAt < clock.now)) return
    if (this.#timer !== undefined) clock.clearTimeout(this.#timer)
    this.#timer = undefined
    this.#armedAt = due
    this.#timerCallAt = clock.now + clampDelay(due - clock.now)
    if (top !== undefined) this.#timer = clock.setTimeout(this.#fire, clampDelay(due - clock.now))
  }

  #fireDue(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer)
    this.#timer = undefined
    this.#armedAt = Number.POSITIVE_INFINITY
    this.#runDue()
    this.#arm()
  }

  #dropCancelled(): void {
    const queue = this.#queue
    while (queue.peek()?.value.cancelled === true) queue.pop()
  }

  #runDue(): void {
    const queue = this.#queue
    for (;;) {
      this.#dropCancelled()
      const top = queue.peek()
      if (top === undefined || top.due > this.#clock.now) return
      queue.pop()
      this.#live--
      const entry = top.value
      entry.cancelled = true
      const run = entry.run
      const def = entry.def
      const args = entry.args
      // The closure may hold a whole request's data; the entry itself can outlive it in `latest`.
      entry.run = undefined
      entry.def = undefined
      entry.args = undefined
      // A task that throws must not stop the tasks due after it, nor surface from `tickAsync` or
      // `settle()` of whoever moves the clock next, long after the request that scheduled it.
      let result: void | Promise<unknown>
      try {
        result = def !== undefined ? def.run(args) : run?.()
      } catch (error) {
        this.#onTaskFailed(entry.label, error)
        continue
      }
      if (result instanceof Promise) {
        const onTaskFailed = this.#onTaskFailed
        this.track(result.catch((error: unknown) => onTaskFailed(entry.label, error)))
      }
    }
  }

  #push(entry: Entry): Entry {
    const due = entry.due
    this.#queue.push(due, entry)
    this.#latest.push(-due, entry)
    this.#live++
    if (due < this.#armedAt) this.#arm()
    if (due > this.#horizonAt && !this.#deferArm) this.#refreshHorizon()
    return entry
  }

  #pushKindEntry(due: number, kind: string, def: Definition, args: unknown): Entry {
    return this.#push({ label: kind, due, cancelled: false, run: undefined, kind, args, def })
  }

  at(due: number, label: string, run: () => void | Promise<unknown>): Task {
    // The same members as a kind's task, so the queue holds entries of one shape.
    return this.#push({ label, due, cancelled: false, run, kind: undefined, args: undefined, def: undefined })
  }

  define<A>(
    kind: string,
    run: (args: A) => void | Promise<unknown>,
    options: { restored?: (task: Task, args: A) => void } = {},
  ): TaskKind<A> {
    if (this.#kinds.has(kind)) throw new Error(`scheduler: task kind '${kind}' is defined twice`)
    const def: Definition = {
      run: run as (args: unknown) => void | Promise<unknown>,
      restored: options.restored as Definition['restored'],
    }
    this.#kinds.set(kind, def)
    return new KindHandle<A>(kind, def, this.#pushKind, this.#clock)
  }

  save(): SavedTask[] {
    if (this.#inflight.size > 0) {
      throw new Error(
        `snapshot: ${this.#inflight.size} piece(s) of work in flight (a delivery awaiting its receiver, a request being answered); take snapshots at rest, after sim.settle()`,
      )
    }
    const live = this.#queue
      .items()
      .filter((item) => !item.value.cancelled)
      .sort((a, b) => a.seq - b.seq)
    const closures = live.filter((item) => item.value.kind === undefined)
    if (closures.length > 0) {
      const labels = [...new Set(closures.map((item) => item.value.label))].map((l) => `'${l}'`).join(', ')
      throw new Error(
        `snapshot: pending task(s) ${labels} cannot be saved (closures, not data: a request or an attempt in flight, or work of a module that did not define its task kind); settle first, or see docs/snapshot.md`,
      )
    }
    return live.map((item) => ({ due: item.due, kind: item.value.kind as string, args: toPlain(item.value.args) }))
  }

  load(tasks: readonly SavedTask[]): void {
    for (const t of tasks) {
      const def = this.#kinds.get(t.kind)
      if (def === undefined) throw new Error(`snapshot: task kind '${t.kind}' is not defined in this simulator`)
      const args = fromPlain(t.args)
      const entry = this.#pushKindEntry(t.due, t.kind, def, args)
      def.restored?.(entry, args)
    }
  }

  after(delay: number, label: string, run: () => void | Promise<unknown>): Task {
    return this.at(this.#clock.now + Math.max(0, delay), label, run)
  }

  cancel(task: Task): void {
    if (task.cancelled) return
    task.cancelled = true
    this.#live--
    if (task.due >= this.#horizonAt && !this.#deferArm) this.#refreshHorizon()
  }

  track(work: Promise<unknown>): void {
    const inflight = this.#inflight
    const p: Promise<unknown> = work.then(
      () => inflight.delete(p),
      () => inflight.delete(p),
    )
    inflight.add(p)
  }

  get pending(): number {
    return this.#live
  }

  get retained(): number {
    return this.#queue.size + this.#latest.size
  }

  nextDue(): number | undefined {
    this.#dropCancelled()
    return this.#queue.peek()?.due
  }

  upcoming(limit: number): UpcomingTask[] {
    return this.#queue
      .items()
      .filter((item) => !item.value.cancelled)
      .sort((a, b) => a.due - b.due || a.seq - b.seq)
      .slice(0, Math.max(0, limit))
      .map(({ due, value }) => ({ due, label: value.label, args: value.kind === undefined ? undefined : toPlain(value.args) }))
  }

  async settle(): Promise<void> {
    const inflight = this.#inflight
    for (;;) {
      this.#runDue()
      this.#arm()
      if (inflight.size === 0) {
        // Let microtasks scheduled by the tasks just run (and by the client) take effect.
        await Promise.resolve()
        const top = this.#queue.peek()
        if (inflight.size === 0 && (top === undefined || top.due > this.#clock.now)) return
        continue
      }
      await Promise.all([...inflight])
    }
  }

  async advance(until: number): Promise<void> {
    const clock = this.#clock
    await this.settle()
    for (;;) {
      const next = this.nextDue()
      if (next === undefined || next > until) break
      const own = (this.#timer === undefined ? 0 : 1) + (this.#horizon === undefined ? 0 : 1)
      if (clock.countTimers() <= own) {
        // Only the scheduler's own timers exist, so nothing else can fall due on the way: jump
        // the clock straight to the next task (a fake-timers tick costs far more per step).
        this.#deferArm = true
        clock.now = Math.max(clock.now, next)
        try {
          await this.settle()
        } finally {
          this.#deferArm = false
        }
      } else {
        // A client timer exists (a receiver sleeping, a client backoff): the synchronous tick
        // fires it, and the armed timer, in due order.
        this.#arm()
        clock.tick(Math.max(0, next - clock.now))
        await this.settle()
      }
    }
    this.#arm()
    if (Number.isFinite(until) && until > clock.now) {
      clock.tick(until - clock.now)
      await this.settle()
    }
  }
}
