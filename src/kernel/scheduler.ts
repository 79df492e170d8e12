import type { Clock } from './clock.js'
import { fromPlain, toPlain } from './plain.js'
import { PriorityQueue } from './priority-queue.js'

/** A pending operation of the service: due at a virtual time, run in (due, insertion) order. */
export interface Task {
  readonly label: string
  readonly due: number
  cancelled: boolean
}

interface Entry extends Task {
  /** A closure task's work; unset for a task of a defined kind, which `def` runs with `args`. */
  run: (() => void | Promise<unknown>) | undefined
  /** Set for tasks of a defined kind: pending work that is data, so a snapshot can carry it. */
  readonly kind?: string | undefined
  args?: unknown
  /** The definition of a kind's task: no closure is made per task. */
  def?: Definition | undefined
}

/**
 * A kind of pending work whose tasks are data (`kind` + plain `args`), made by
 * `scheduler.define`: what a snapshot saves and a loaded simulator re-creates.
 *
 * @example
 * const forget = scheduler.define<{ id: string }>('session.forget', ({ id }) => drop(id))
 * forget.at(expiresAt + DAY, { id: session.id })
 */
export interface TaskKind<A> {
  at(due: number, args: A): Task
  after(delay: number, args: A): Task
}

/** One pending task of a snapshot, in insertion order. */
export interface SavedTask {
  readonly due: number
  readonly kind: string
  readonly args: unknown
}

interface Definition {
  run(args: unknown): void | Promise<unknown>
  restored?: ((task: Task, args: unknown) => void) | undefined
}

/**
 * The due-time priority queue of every pending operation (async processing, deliveries, retries,
 * expiries), bound to the virtual clock. Exactly one clock timer is armed, at the earliest due
 * time, so advancing the clock jumps from due item to due item.
 *
 * @example
 * const scheduler = createScheduler(clock)
 * scheduler.after(1000, 'meter.process', () => process())
 * await clock.tickAsync(1000) // runs it
 */
export interface Scheduler {
  /**
   * Schedules a closure. Use it only for work that cannot outlive the moment (an answer in
   * flight): a pending closure task makes `sim.snapshot()` throw, naming its label. Pending work
   * of the service's state uses `define`.
   */
  at(due: number, label: string, run: () => void | Promise<unknown>): Task
  /**
   * Defines a kind of task whose pending instances are data: `run(args)` runs one (`args` plain
   * data: ids, numbers, strings, no live objects), and `restored(task, args)`, when given, tells
   * the owning module of each task a snapshot re-created (to keep its handle for `cancel`).
   */
  define<A>(
    kind: string,
    run: (args: A) => void | Promise<unknown>,
    options?: { restored?: (task: Task, args: A) => void },
  ): TaskKind<A>
  /** Pending tasks as data, in insertion order; throws when one is a closure or work is in flight. */
  save(): SavedTask[]
  /** Re-creates saved tasks (after the modules' state is loaded), keeping their order. */
  load(tasks: readonly SavedTask[]): void
  after(delay: number, label: string, run: () => void | Promise<unknown>): Task
  cancel(task: Task): void
  /** Registers async work (a delivery in flight) that `settle()` must wait for. */
  track(work: Promise<unknown>): void
  /** Number of tasks not yet run or cancelled. */
  readonly pending: number
  /** Entries the queues still hold, dead ones included: a memory diagnostic that must follow `pending`. */
  readonly retained: number
  /** Due time of the earliest pending task. */
  nextDue(): number | undefined
  /** Runs every task due at or before the current virtual time and waits for their async work. */
  settle(): Promise<void>
  /**
   * Runs all work due up to `until` (epoch ms; `Infinity`: until no task is left), moving the clock
   * from due item to due item and settling each instant, then leaves the clock at `until` when it
   * is finite. Unlike `clock.tickAsync`, which yields a real timer turn per fired timer, it stays
   * in microtasks, so long schedules (days of retries for thousands of deliveries) run fast.
   */
  advance(until: number): Promise<void>
}

const NOOP = () => {}

/**
 * A defined kind's handle: its methods are on the prototype, so a simulator (one per property run)
 * defining dozens of kinds makes no closures for them.
 */
class KindHandle<A> implements TaskKind<A> {
  readonly #kind: string
  readonly #def: Definition
  readonly #push: (due: number, kind: string, def: Definition, args: unknown) => Task
  readonly #clock: Clock
  constructor(
    kind: string,
    def: Definition,
    push: (due: number, kind: string, def: Definition, args: unknown) => Task,
    clock: Clock,
  ) {
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
 * The longest delay a timer can be armed with: `@sinonjs/fake-timers`, like Node and browsers,
 * fires a longer `setTimeout` at once (1 ms). Longer waits (a month-long period, a year-long trial)
 * arm a timer of at most this length and re-arm on wake until the due time is reached.
 */
export const MAX_TIMER_DELAY = 2 ** 31 - 1

function clampDelay(delay: number): number {
  return Math.min(MAX_TIMER_DELAY, Math.max(0, delay))
}

// `runToLast(Async)` of fake-timers ticks to the last timer armed when it is called; with waits
// longer than MAX_TIMER_DELAY the scheduler's horizon timer is only a stepping stone. A clock's
// two methods are wrapped once, and repeat while the horizon of a scheduler on it lies ahead
// (a clock shared by many simulations holds their schedulers weakly, so it does not keep them
// alive; a simulation's own clock holds its one scheduler strongly: a WeakRef keeps its target
// alive until the current job ends, so forks made in one synchronous loop would all stay alive).
interface HorizonProbe {
  ahead(): boolean
}
type ProbeRef = Pick<WeakRef<HorizonProbe>, 'deref'>
const probesOf = new WeakMap<Clock, Set<ProbeRef>>()

function anyAhead(probes: Set<ProbeRef>): boolean {
  let ahead = false
  for (const ref of probes) {
    const probe = ref.deref()
    if (probe === undefined) probes.delete(ref)
    else if (probe.ahead()) ahead = true
  }
  return ahead
}

function watchHorizon(clock: Clock, probe: HorizonProbe, owned: boolean): void {
  let probes = probesOf.get(clock)
  if (probes === undefined) {
    const set = new Set<ProbeRef>()
    probes = set
    probesOf.set(clock, set)
    const runToLastAsync = clock.runToLastAsync
    const runToLast = clock.runToLast
    if (typeof runToLastAsync === 'function') {
      clock.runToLastAsync = async () => {
        let now = await runToLastAsync.call(clock)
        while (anyAhead(set)) now = await runToLastAsync.call(clock)
        return now
      }
    }
    if (typeof runToLast === 'function') {
      clock.runToLast = () => {
        let now = runToLast.call(clock)
        while (anyAhead(set)) now = runToLast.call(clock)
        return now
      }
    }
  }
  probes.add(
    owned
      ? {
          deref() {
            return probe
          },
        }
      : new WeakRef(probe),
  )
}

/**
 * Options of {@link createScheduler}.
 *
 * @example
 * const scheduler = createScheduler(clock, { onTaskFailed: (label, error) => trace.append('scheduler.task_failed', { label }) })
 */
export interface SchedulerOptions {
  /**
   * Told of a task that threw or whose promise rejected: a simulator bug, reported (the simulator
   * traces it as `scheduler.task_failed`) instead of breaking the queue, the clock or `settle()`.
   */
  readonly onTaskFailed?: (label: string, error: unknown) => void
  /** The clock is this simulation's own (no other scheduler runs on it). Default false. */
  readonly ownsClock?: boolean
}

export function createScheduler(clock: Clock, options: SchedulerOptions = {}): Scheduler {
  const onTaskFailed = options.onTaskFailed ?? NOOP
  const queue = new PriorityQueue<Entry>()
  const inflight = new Set<Promise<unknown>>()
  let live = 0
  let armedAt = Number.POSITIVE_INFINITY
  let timer: ReturnType<Clock['setTimeout']> | undefined
  // A second timer at the latest due time makes `clock.runToLastAsync()` reach all pending work,
  // while only two timers ever sit in fake-timers (whose next-timer search scans them all). A
  // max-heap (lazy deletion) keeps that time exact when the latest task is cancelled or run, so
  // the clock is never dragged to a time no work is due at.
  const latest = new PriorityQueue<Entry>()
  let horizonAt = Number.NEGATIVE_INFINITY
  let horizon: ReturnType<Clock['setTimeout']> | undefined
  // When the armed timers fire: a clamped timer fires before its due time, and `advance` may jump
  // the clock past it, leaving fake-timers a timer behind the clock that no tick ever fires.
  let timerCallAt = Number.POSITIVE_INFINITY
  let horizonCallAt = Number.POSITIVE_INFINITY
  const probe = {
    ahead: () => horizon !== undefined && horizonAt > clock.now,
    wake: () => {
      horizon = undefined
      horizonAt = Number.NEGATIVE_INFINITY
      fire()
    },
  }
  watchHorizon(clock, probe, options.ownsClock === true)

  // Run and cancelled tasks leave `latest` only when they reach its top, which the newest task
  // may never let them do: rebuild it whenever most of it is dead, so memory follows live work.
  function compactLatest(): void {
    if (latest.size <= 2 * live + 1024) return
    const keep: Entry[] = []
    for (let item = latest.pop(); item !== undefined; item = latest.pop()) if (!item.value.cancelled) keep.push(item.value)
    for (const entry of keep) latest.push(-entry.due, entry)
  }

  function refreshHorizon(): void {
    compactLatest()
    while (latest.peek()?.value.cancelled === true) latest.pop()
    const top = latest.peek()
    const due = top === undefined ? Number.NEGATIVE_INFINITY : top.value.due
    if (due === horizonAt && !(horizon !== undefined && horizonCallAt < clock.now)) return
    if (horizon !== undefined) clock.clearTimeout(horizon)
    horizon = undefined
    horizonAt = due
    if (top === undefined) return
    // The armed timer holds the probe, so it lives exactly while it can say the horizon is ahead.
    horizonCallAt = clock.now + clampDelay(due - clock.now)
    horizon = clock.setTimeout(() => probe.wake(), clampDelay(due - clock.now))
  }

  // While `advance` jumps the clock itself, re-arming the fake timer at every step is wasted work.
  let deferArm = false

  function arm(): void {
    if (deferArm) return
    armEarliest()
    refreshHorizon()
  }

  function armEarliest(): void {
    dropCancelled()
    const top = queue.peek()
    const due = top === undefined ? Number.POSITIVE_INFINITY : top.due
    if (due === armedAt && !(timer !== undefined && timerCallAt < clock.now)) return
    if (timer !== undefined) clock.clearTimeout(timer)
    timer = undefined
    armedAt = due
    timerCallAt = clock.now + clampDelay(due - clock.now)
    if (top !== undefined) timer = clock.setTimeout(fire, clampDelay(due - clock.now))
  }

  function fire(): void {
    if (timer !== undefined) clock.clearTimeout(timer)
    timer = undefined
    armedAt = Number.POSITIVE_INFINITY
    runDue()
    arm()
  }

  function dropCancelled(): void {
    while (queue.peek()?.value.cancelled === true) queue.pop()
  }

  function runDue(): void {
    for (;;) {
      dropCancelled()
      const top = queue.peek()
      if (top === undefined || top.due > clock.now) return
      queue.pop()
      live--
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
        onTaskFailed(entry.label, error)
        continue
      }
      if (result instanceof Promise) scheduler.track(result.catch((error: unknown) => onTaskFailed(entry.label, error)))
    }
  }

  const kinds = new Map<string, Definition>()

  function push(entry: Entry): Entry {
    const due = entry.due
    queue.push(due, entry)
    latest.push(-due, entry)
    live++
    if (due < armedAt) arm()
    if (due > horizonAt && !deferArm) refreshHorizon()
    return entry
  }

  function pushKind(due: number, kind: string, def: Definition, args: unknown): Entry {
    return push({ label: kind, due, cancelled: false, run: undefined, kind, args, def })
  }

  const scheduler: Scheduler = {
    at(due, label, run) {
      // The same members as a kind's task, so the queue holds entries of one shape.
      return push({ label, due, cancelled: false, run, kind: undefined, args: undefined, def: undefined })
    },
    define<A>(
      kind: string,
      run: (args: A) => void | Promise<unknown>,
      options: { restored?: (task: Task, args: A) => void } = {},
    ): TaskKind<A> {
      if (kinds.has(kind)) throw new Error(`scheduler: task kind '${kind}' is defined twice`)
      const def: Definition = {
        run: run as (args: unknown) => void | Promise<unknown>,
        restored: options.restored as Definition['restored'],
      }
      kinds.set(kind, def)
      return new KindHandle<A>(kind, def, pushKind, clock)
    },
    save() {
      if (inflight.size > 0) {
        throw new Error(
          `snapshot: ${inflight.size} piece(s) of work in flight (a delivery awaiting its receiver, a request being answered); take snapshots at rest, after sim.settle()`,
        )
      }
      const live = queue
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
    },
    load(tasks) {
      for (const t of tasks) {
        const def = kinds.get(t.kind)
        if (def === undefined) throw new Error(`snapshot: task kind '${t.kind}' is not defined in this simulator`)
        const args = fromPlain(t.args)
        const entry = pushKind(t.due, t.kind, def, args)
        def.restored?.(entry, args)
      }
    },
    after(delay, label, run) {
      return scheduler.at(clock.now + Math.max(0, delay), label, run)
    },
    cancel(task) {
      if (task.cancelled) return
      task.cancelled = true
      live--
      if (task.due >= horizonAt && !deferArm) refreshHorizon()
    },
    track(work) {
      const p: Promise<unknown> = work.then(
        () => inflight.delete(p),
        () => inflight.delete(p),
      )
      inflight.add(p)
    },
    get pending() {
      return live
    },
    get retained() {
      return queue.size + latest.size
    },
    nextDue() {
      dropCancelled()
      return queue.peek()?.due
    },
    async settle() {
      for (;;) {
        runDue()
        arm()
        if (inflight.size === 0) {
          // Let microtasks scheduled by the tasks just run (and by the client) take effect.
          await Promise.resolve()
          const top = queue.peek()
          if (inflight.size === 0 && (top === undefined || top.due > clock.now)) return
          continue
        }
        await Promise.all([...inflight])
      }
    },
    async advance(until) {
      await scheduler.settle()
      for (;;) {
        const next = scheduler.nextDue()
        if (next === undefined || next > until) break
        const own = (timer === undefined ? 0 : 1) + (horizon === undefined ? 0 : 1)
        if (clock.countTimers() <= own) {
          // Only the scheduler's own timers exist, so nothing else can fall due on the way: jump
          // the clock straight to the next task (a fake-timers tick costs far more per step).
          deferArm = true
          clock.now = Math.max(clock.now, next)
          try {
            await scheduler.settle()
          } finally {
            deferArm = false
          }
        } else {
          // A client timer exists (a receiver sleeping, a client backoff): the synchronous tick
          // fires it, and the armed timer, in due order.
          arm()
          clock.tick(Math.max(0, next - clock.now))
          await scheduler.settle()
        }
      }
      arm()
      if (Number.isFinite(until) && until > clock.now) {
        clock.tick(until - clock.now)
        await scheduler.settle()
      }
    },
  }
  return scheduler
}
