import type { Task } from '#kernel/scheduler.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type Ref, refOf, scopeOf } from './billing-types.js'
import type { BillingContext } from './context.js'
import { TestClockTimeline, type Timeline } from './timelines.js'

interface Advance extends Ref {
  readonly frozenTime: number
}

/**
 * Test clocks: one billing timeline per clock, advanced through the simulator's due-time queue
 * (`test_clock.advance`), and the timeline a customer's billing runs on.
 */
export type TestClocks = ReturnType<typeof createTestClocks>

export function createTestClocks(ctx: BillingContext, cancelNow: (scope: Scope, id: string, origin: Origin) => void) {
  const { kernel, events, r, clocks, key, simLine } = ctx
  const advancing = new Map<string, { job: Task; args: Advance }>()
  const own = {
    timelineOfClock(scope: Scope, clock: unknown): Timeline {
      if (typeof clock !== 'string') return simLine
      return clocks.get(key(scope, clock)) ?? simLine
    },
  }

  function runAdvance(a: Advance): void {
    const scope = scopeOf(a)
    const { id, frozenTime } = a
    const k = key(scope, id)
    advancing.delete(k)
    clocks.get(k)?.advanceTo(frozenTime * 1000, ctx.failed)
    const ready = r.clock().put(scope, id, { status: 'ready', frozen_time: frozenTime, status_details: {} })
    kernel.trace.append('test_clock.advanced', { id, account: scope.account, mode: scope.mode, frozen_time: frozenTime })
    emitSnapshot(events, 'test_helpers.test_clock.ready', scope, ready, NO_ORIGIN)
  }

  const advanceTask = kernel.scheduler.define<Advance>('test_clock.advance', runAdvance, {
    restored(job, a) {
      return advancing.set(key(scopeOf(a), a.id), { job, args: a })
    },
  })

  return {
    /** Forgets pending advances (a snapshot's tasks re-create them). */
    clearAdvancing() {
      return advancing.clear()
    },
    timelineOfClock: own.timelineOfClock,
    timelineOfCustomer(scope: Scope, customer: Json): Timeline {
      return own.timelineOfClock(scope, customer.test_clock)
    },
    /** A test clock's timeline (registered on create). */
    registerClock(scope: Scope, id: string, frozenMs: number): void {
      clocks.set(key(scope, id), new TestClockTimeline(id, frozenMs))
    },
    clockTimeline(scope: Scope, id: string) {
      return clocks.get(key(scope, id))
    },
    /**
     * Starts advancing a test clock: `advancing` now, and its billing work up to `frozenTime` (unix
     * seconds) queued on the simulator's due-time queue at the current instant (`sim.settle()`,
     * any clock movement, or the next read of the clock runs it); then `ready`.
     */
    advanceClock(scope: Scope, id: string, frozenTime: number, origin: Origin): Json {
      const k = key(scope, id)
      const json = r.clock().put(scope, id, {
        status: 'advancing',
        frozen_time: frozenTime,
        status_details: { advancing: { target_frozen_time: frozenTime } },
      })
      emitSnapshot(events, 'test_helpers.test_clock.advancing', scope, json, origin)
      const args: Advance = { ...refOf(scope, id), frozenTime }
      const job = advanceTask.after(0, args)
      advancing.set(k, { job, args })
      return json
    },
    /** Finishes an advance whose work is due (a read of the clock sees it `ready`, as polling code expects). */
    completeAdvance(scope: Scope, id: string): void {
      const pending = advancing.get(key(scope, id))
      if (pending === undefined || pending.job.due > kernel.clock.now) return
      kernel.scheduler.cancel(pending.job)
      runAdvance(pending.args)
    },
    /** A deleted test clock takes its customers (and their subscriptions) with it, as the provider does. */
    dropClock(scope: Scope, id: string, origin: Origin): void {
      const k = key(scope, id)
      const pending = advancing.get(k)
      if (pending !== undefined) kernel.scheduler.cancel(pending.job)
      advancing.delete(k)
      clocks.get(k)?.clear()
      clocks.delete(k)
      for (const customer of r
        .customer()
        .list(scope)
        .filter((c) => c.test_clock === id)) {
        for (const sub of r
          .subscription()
          .list(scope)
          .filter((x) => x.customer === customer.id && x.status !== 'canceled')) {
          cancelNow(scope, sub.id, origin)
        }
        r.customer().delete(scope, customer.id, origin)
      }
    },
  }
}
