import { PriorityQueue } from '#kernel/priority-queue.js'
import type { Scheduler, TaskKind } from '#kernel/scheduler.js'

/** Pending billing work on one timeline: cancel it by setting `cancelled` (or through the timeline). */
export interface Job {
  readonly label: string
  readonly due: number
  cancelled: boolean
}

/**
 * A kind of billing work (a period end, a finalization, a payment retry) whose pending instances
 * are data: the label (also the scheduler's task kind), `run(args)` and, on the simulator clock,
 * the scheduler's task kind. `args` name records by id, so a snapshot carries them.
 */
export interface JobKind<A> {
  readonly label: string
  run(args: A): void
  readonly task: TaskKind<A>
}

/**
 * Where billing work waits: the simulator's one clock (its scheduler), or a test clock's own
 * frozen time. Billing code reads `now()` and queues with `at()`, never knowing which.
 */
export interface Timeline {
  /** The test clock id, or null for the simulator clock. */
  readonly clock: string | null
  now(): number
  at<A>(due: number, kind: JobKind<A>, args: A): Job
  cancel(job: Job): void
}

/** The simulator clock as a billing timeline: every job goes through the due-time queue. */
export function simulatorTimeline(clock: { readonly now: number }, scheduler: Scheduler): Timeline {
  return {
    clock: null,
    now() {
      return clock.now
    },
    at(due, kind, args) {
      return kind.task.at(due, args)
    },
    cancel(job) {
      return scheduler.cancel(job as Parameters<Scheduler['cancel']>[0])
    },
  }
}

interface ClockJob extends Job {
  readonly args: unknown
  readonly run: (args: unknown) => void
}

/** A test clock timeline as plain data: its frozen time and its pending jobs in insertion order. */
export interface SavedClockTimeline {
  readonly clock: string
  readonly frozen: number
  readonly jobs: { due: number; label: string; args: unknown }[]
}

/**
 * A test clock's timeline: time stands still at `frozen` until the clock is advanced, then the
 * jobs due up to the new time run in (due, insertion) order, each at its own instant, including
 * the jobs they queue on the way (the next billing period of a monthly subscription advanced by a
 * year).
 */
export class TestClockTimeline implements Timeline {
  private readonly queue = new PriorityQueue<ClockJob>()

  constructor(
    readonly clock: string,
    public frozen: number,
  ) {}

  now(): number {
    return this.frozen
  }

  at<A>(due: number, kind: JobKind<A>, args: A): Job {
    return this.push(Math.max(due, this.frozen), kind.label, args, kind.run as (args: unknown) => void)
  }

  private push(due: number, label: string, args: unknown, run: (args: unknown) => void): ClockJob {
    const job: ClockJob = { label, due, cancelled: false, args, run }
    this.queue.push(job.due, job)
    return job
  }

  cancel(job: Job): void {
    job.cancelled = true
  }

  /** Runs every job due at or before `until` in order, moving the frozen time to each, then to `until`. */
  advanceTo(until: number, onError: (label: string, error: unknown) => void): void {
    for (;;) {
      const top = this.queue.peek()
      if (top === undefined || top.due > until) break
      this.queue.pop()
      const job = top.value
      if (job.cancelled) continue
      job.cancelled = true
      this.frozen = Math.max(this.frozen, job.due)
      try {
        job.run(job.args)
      } catch (error) {
        onError(job.label, error)
      }
    }
    this.frozen = until
  }

  /** Drops every pending job (the clock was deleted). */
  clear(): void {
    for (let top = this.queue.pop(); top !== undefined; top = this.queue.pop()) top.value.cancelled = true
  }

  /** The frozen time and the live jobs in insertion order (args as given: the caller copies). */
  save(): SavedClockTimeline {
    const jobs = this.queue
      .items()
      .filter((item) => !item.value.cancelled)
      .sort((a, b) => a.seq - b.seq)
      .map((item) => ({ due: item.due, label: item.value.label, args: item.value.args }))
    return { clock: this.clock, frozen: this.frozen, jobs }
  }

  /**
   * A timeline from saved data; `kinds` finds each job's kind by label, and `restored` hands the
   * caller each re-created job (for the handles it keeps to cancel).
   */
  static load(
    saved: SavedClockTimeline,
    kinds: ReadonlyMap<string, JobKind<never>>,
    restored: (job: Job, label: string, args: unknown) => void,
  ): TestClockTimeline {
    const line = new TestClockTimeline(saved.clock, saved.frozen)
    for (const j of saved.jobs) {
      const kind = kinds.get(j.label)
      if (kind === undefined) throw new Error(`snapshot: test clock job kind '${j.label}' is not defined in this simulator`)
      restored(line.push(j.due, j.label, j.args, kind.run as (args: unknown) => void), j.label, j.args)
    }
    return line
  }
}
