import type { Task } from '#kernel/scheduler.js'
import type { DeliveryFaultHookDecision } from '../../fault-hooks.js'
import type { StoredEvent } from '../event.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryRecord } from './delivery-record.js'
import { untilIdle } from './idle.js'
import { scheduleSpanMs } from './retry-policy.js'

/**
 * Triggers whose attempts are scheduled (the others are sent while their caller waits).
 *
 * @example
 * schedule.attempt(record, due, 'retry' satisfies ScheduledTrigger)
 */
export type ScheduledTrigger = 'automatic' | 'retry' | 'duplicate' | 'ping'

/**
 * Runs one scheduled attempt; `undefined` when nothing was sent.
 *
 * @example
 * const run: RunAttempt = (r, event, trigger, fault) => attempts(r, event, trigger, fault)
 */
export type RunAttempt = (
  r: DeliveryRecord,
  event: StoredEvent,
  trigger: ScheduledTrigger,
  fault: DeliveryFaultHookDecision | undefined,
) => void | Promise<void>

/**
 * The schedule of attempts and horizons on the kernel scheduler.
 *
 * @example
 * const schedule = createAttemptSchedule(ctx, (...a) => attempts.run(...a))
 * schedule.attempt(record, clock.now, 'automatic')
 */
export interface AttemptSchedule {
  /** Schedules an attempt; automatic attempts and retries set the record's `nextAttemptAt`. */
  attempt(r: DeliveryRecord, due: number, trigger: ScheduledTrigger, fault?: DeliveryFaultHookDecision): Task
  /** Sets the record's horizon: the latest time its automatic schedule can reach. */
  horizon(r: DeliveryRecord, from: number): void
  /** Drops the record's horizon once its automatic schedule is over. */
  settleHorizon(r: DeliveryRecord): void
  /** Forgets every horizon (a load: restored tasks set them again). */
  clear(): void
}

interface AttemptArgs {
  readonly event: string
  readonly destination: string
  readonly fault: DeliveryFaultHookDecision | undefined
}

/**
 * Pending attempts are data (ids and the fault decision), so a snapshot carries them; one kind
 * per trigger keeps the labels the trace reports for a failed task. A horizon is a no-op task at
 * the latest time the retry schedule can reach: `clock.runToLastAsync()` then runs the whole
 * schedule, including retries scheduled only after earlier attempts fail.
 *
 * @example
 * const schedule = createAttemptSchedule(ctx, run)
 * schedule.horizon(record, clock.now)
 */
export function createAttemptSchedule(ctx: DeliveryContext, run: RunAttempt): AttemptSchedule {
  const { scheduler } = ctx.kernel
  const horizons = new Map<DeliveryRecord, Task>()
  const kinds = new Map(
    (['automatic', 'retry', 'duplicate', 'ping'] as const).map((trigger) => [
      trigger,
      scheduler.define<AttemptArgs>(`delivery.${trigger}`, (a) => {
        const r = ctx.book.get(a.event, a.destination) as DeliveryRecord
        const work = run(r, ctx.index.lookup(a.event) as StoredEvent, trigger, a.fault)
        if (work === undefined) return
        // A slowed attempt waits on the clock whatever the receiver: settle() must not wait for it.
        return ctx.transport.waitsOnClock(r.url) || (a.fault?.slowMs ?? 0) > 0 ? untilIdle(work) : work
      }),
    ]),
  )
  const horizonTask = scheduler.define<{ event: string; destination: string }>('delivery.horizon', () => {}, {
    restored(task, a) {
      return horizons.set(ctx.book.get(a.event, a.destination) as DeliveryRecord, task)
    },
  })
  return {
    attempt(r, due, trigger, fault) {
      if (trigger === 'automatic' || trigger === 'retry') r.nextAttemptAt = due
      const kind = kinds.get(trigger) as NonNullable<ReturnType<typeof kinds.get>>
      return kind.at(due, { event: r.eventId, destination: r.destinationId, fault })
    },
    horizon(r, from) {
      horizons.set(r, horizonTask.at(from + scheduleSpanMs(r.mode), { event: r.eventId, destination: r.destinationId }))
    },
    settleHorizon(r) {
      const h = horizons.get(r)
      if (h === undefined) return
      scheduler.cancel(h)
      horizons.delete(r)
    },
    clear() {
      return horizons.clear()
    },
  }
}
