import type { Clock } from './clock.js'
import { DueTimeScheduler } from './due-time-scheduler.js'

export { MAX_TIMER_DELAY } from './watch-horizon.js'

/** A pending operation of the service: due at a virtual time, run in (due, insertion) order. */
export interface Task {
  readonly label: string
  readonly due: number
  cancelled: boolean
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

/**
 * A pending task as `upcoming` shows it.
 *
 * @example
 * const next: UpcomingTask = { due: 1000, label: 'meter.process', args: undefined }
 */
export interface UpcomingTask {
  readonly due: number
  readonly label: string
  readonly args: unknown
}

/** One pending task of a snapshot, in insertion order. */
export interface SavedTask {
  readonly due: number
  readonly kind: string
  readonly args: unknown
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
  /**
   * The earliest `limit` pending tasks, in the order they will run: what falls due next, for a
   * person to read (a task of a defined kind with its plain arguments).
   *
   * @example
   * scheduler.upcoming(10) // [{ due: 1767225601000, label: 'delivery.attempt', args: { ... } }]
   */
  upcoming(limit: number): UpcomingTask[]
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

/**
 * Makes the scheduler of one simulation, on its clock.
 *
 * @example
 * const scheduler = createScheduler(clock, { ownsClock: true })
 * scheduler.after(1000, 'meter.process', () => process())
 */
export function createScheduler(clock: Clock, options: SchedulerOptions = {}): Scheduler {
  return new DueTimeScheduler(clock, options)
}
