import { PriorityQueue } from '#kernel/priority-queue.js'
import type { Scheduler } from '#kernel/scheduler.js'

/** Pending billing work on one timeline: cancel it by setting `cancelled` (or through the timeline). */
export interface Job {
  readonly label: string
  readonly due: number
  cancelled: boolean
}

/**
 * Where billing work waits: the simulator's one clock (its scheduler), or a test clock's own
 * frozen time. Billing code reads `now()` and queues with `at()`, never knowing which.
 */
export interface Timeline {
  /** The test clock id, or null for the simulator clock. */
  readonly clock: string | null
  now(): number
  at(due: number, label: string, run: () => void): Job
  cancel(job: Job): void
}

/** The simulator clock as a billing timeline: every job goes through the due-time queue. */
export function simulatorTimeline(clock: { readonly now: number }, scheduler: Scheduler): Timeline {
  return {
    clock: null,
    now: () => clock.now,
    at: (due, label, run) => scheduler.at(due, label, run),
    cancel: (job) => scheduler.cancel(job as Parameters<Scheduler['cancel']>[0]),
  }
}

interface ClockJob extends Job {
  run: () => void
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

  at(due: number, label: string, run: () => void): Job {
    const job: ClockJob = { label, due: Math.max(due, this.frozen), cancelled: false, run }
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
        job.run()
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
}
