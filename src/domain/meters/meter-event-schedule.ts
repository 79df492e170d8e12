import type { FaultHooks } from '../fault-hooks.js'
import type { Kernel } from '../kernel-parts.js'
import { IDENTIFIER_WINDOW } from './identifier-index.js'
import type { MeterEventState } from './meter-event-state.js'

/** Range of the virtual delay between accepting meter events and processing them, in ms. */
export const METER_PROCESSING_DELAY = { min: 500, max: 5_000 } as const

/**
 * When meter event work runs: the seeded processing delay, waiting while a meter is locked, and
 * the sweep that forgets identifiers after their 24 hours.
 *
 * @example
 * const schedule = createMeterEventSchedule(kernel, state, faultHooks)
 * task.after(schedule.delay(), args)
 */
export interface MeterEventSchedule {
  /** Virtual ms until accepted work is processed (seeded, plus the fault's extra delay). */
  delay(): number
  /**
   * True (and `again(until, args)` called) while a lock on one of `meterIds(args)` is held:
   * processing is an internal process that takes the meter's lock, so a request changing the meter
   * makes it wait. The task's args are passed through, so a task makes no closure per run.
   */
  waitForLocks<A>(
    args: A,
    meterIds: (args: A) => Iterable<string>,
    label: string,
    again: (until: number, args: A) => void,
  ): boolean
  /** Keeps one sweep pending while any index holds identifiers, so idle runs release memory too. */
  armSweep(): void
}

export function createMeterEventSchedule(kernel: Kernel, state: MeterEventState, faultHooks: FaultHooks): MeterEventSchedule {
  const latency = kernel.rng.stream('meter-processing')
  const sweepTask = kernel.scheduler.define<Record<string, never>>('meter.identifiers.sweep', () => {
    state.counts.sweepArmed = false
    for (const i of state.indexes.values()) i.sweep(kernel.clock.now)
    armSweep()
  })

  function armSweep(): void {
    if (state.counts.sweepArmed) return
    let oldest = Number.POSITIVE_INFINITY
    for (const i of state.indexes.values()) oldest = Math.min(oldest, i.oldest ?? Number.POSITIVE_INFINITY)
    if (oldest === Number.POSITIVE_INFINITY) return
    state.counts.sweepArmed = true
    sweepTask.at(oldest + IDENTIFIER_WINDOW, {})
  }

  return {
    delay: () =>
      Math.round(latency.between(METER_PROCESSING_DELAY.min, METER_PROCESSING_DELAY.max)) + faultHooks.processingDelay(),
    waitForLocks(args, meterIds, label, again) {
      const locks = state.locks
      if (locks === undefined || locks.size === 0) return false
      let until = Number.NEGATIVE_INFINITY
      for (const id of meterIds(args)) until = Math.max(until, locks.heldUntil(id) ?? Number.NEGATIVE_INFINITY)
      if (until <= kernel.clock.now) return false
      kernel.trace.append('meter_events.waiting', { label, until })
      again(until, args)
      return true
    },
    armSweep,
  }
}
