import type { Task, TaskKind } from '#kernel/scheduler.js'
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

/**
 * What test clocks work with: billing's shared records, the advances pending, how a subscription
 * is canceled now, and the `test_clock.advance` task kind (defined with them).
 */
class ClockParts {
  readonly ctx: BillingContext
  readonly cancelNow: (scope: Scope, id: string, origin: Origin) => void
  readonly advancing = new Map<string, { job: Task; args: Advance }>()
  readonly advanceTask: TaskKind<Advance>
  constructor(ctx: BillingContext, cancelNow: (scope: Scope, id: string, origin: Origin) => void) {
    this.ctx = ctx
    this.cancelNow = cancelNow
    this.advanceTask = ctx.kernel.scheduler.define<Advance>('test_clock.advance', (a) => runAdvance(this, a), {
      restored: (job, a) => {
        this.advancing.set(ctx.key(scopeOf(a), a.id), { job, args: a })
      },
    })
  }
}

/**
 * Billing's test clock members (made with the area: a loaded snapshot's pending advances name
 * their task kind), each a plain function of the clock parts, handed around unbound by the facade.
 *
 * @example
 * const testClocks = createTestClocks(ctx, cancelNow)
 * testClocks.registerClock(scope, 'clock_1', frozenMs) // its timeline, for its customers' billing
 */
export function createTestClocks(ctx: BillingContext, cancelNow: (scope: Scope, id: string, origin: Origin) => void) {
  const p = new ClockParts(ctx, cancelNow)
  return {
    /** Forgets pending advances (a snapshot's tasks re-create them). */
    clearAdvancing: (): void => p.advancing.clear(),
    timelineOfClock: (scope: Scope, clock: unknown): Timeline => timelineOfClock(ctx, scope, clock),
    timelineOfCustomer: (scope: Scope, customer: Json): Timeline => timelineOfClock(ctx, scope, customer.test_clock),
    /** A test clock's timeline (registered on create). */
    registerClock: (scope: Scope, id: string, frozenMs: number): void => {
      ctx.clocks.set(ctx.key(scope, id), new TestClockTimeline(id, frozenMs))
    },
    clockTimeline: (scope: Scope, id: string): TestClockTimeline | undefined => ctx.clocks.get(ctx.key(scope, id)),
    advanceClock: (scope: Scope, id: string, frozenTime: number, origin: Origin): Json =>
      advanceClock(p, scope, id, frozenTime, origin),
    completeAdvance: (scope: Scope, id: string): void => completeAdvance(p, scope, id),
    dropClock: (scope: Scope, id: string, origin: Origin): void => dropClock(p, scope, id, origin),
  }
}

/** The timeline of a test clock id (the simulator's when there is none). */
function timelineOfClock(ctx: BillingContext, scope: Scope, clock: unknown): Timeline {
  if (typeof clock !== 'string') return ctx.simLine
  return ctx.clocks.get(ctx.key(scope, clock)) ?? ctx.simLine
}

/** An advance's work: the clock's timeline runs up to the frozen time, then the clock is `ready`. */
function runAdvance(p: ClockParts, a: Advance): void {
  const { ctx } = p
  const scope = scopeOf(a)
  const { id, frozenTime } = a
  const k = ctx.key(scope, id)
  p.advancing.delete(k)
  ctx.clocks.get(k)?.advanceTo(frozenTime * 1000, ctx.failed)
  const ready = ctx.r.clock().put(scope, id, { status: 'ready', frozen_time: frozenTime, status_details: {} })
  ctx.kernel.trace.append('test_clock.advanced', { id, account: scope.account, mode: scope.mode, frozen_time: frozenTime })
  emitSnapshot(ctx.events, 'test_helpers.test_clock.ready', scope, ready, NO_ORIGIN)
}

/**
 * Starts advancing a test clock: `advancing` now, and its billing work up to `frozenTime` (unix
 * seconds) queued on the simulator's due-time queue at the current instant (`sim.settle()`,
 * any clock movement, or the next read of the clock runs it); then `ready`.
 */
function advanceClock(p: ClockParts, scope: Scope, id: string, frozenTime: number, origin: Origin): Json {
  const { ctx } = p
  const k = ctx.key(scope, id)
  const json = ctx.r.clock().put(scope, id, {
    status: 'advancing',
    frozen_time: frozenTime,
    status_details: { advancing: { target_frozen_time: frozenTime } },
  })
  emitSnapshot(ctx.events, 'test_helpers.test_clock.advancing', scope, json, origin)
  const args: Advance = { ...refOf(scope, id), frozenTime }
  const job = p.advanceTask.after(0, args)
  p.advancing.set(k, { job, args })
  return json
}

/** Finishes an advance whose work is due (a read of the clock sees it `ready`, as polling code expects). */
function completeAdvance(p: ClockParts, scope: Scope, id: string): void {
  const { kernel } = p.ctx
  const pending = p.advancing.get(p.ctx.key(scope, id))
  if (pending === undefined || pending.job.due > kernel.clock.now) return
  kernel.scheduler.cancel(pending.job)
  runAdvance(p, pending.args)
}

/** A deleted test clock takes its customers (and their subscriptions) with it, as the provider does. */
function dropClock(p: ClockParts, scope: Scope, id: string, origin: Origin): void {
  const { ctx } = p
  const { r } = ctx
  const k = ctx.key(scope, id)
  const pending = p.advancing.get(k)
  if (pending !== undefined) ctx.kernel.scheduler.cancel(pending.job)
  p.advancing.delete(k)
  ctx.clocks.get(k)?.clear()
  ctx.clocks.delete(k)
  for (const customer of r
    .customer()
    .list(scope)
    .filter((c) => c.test_clock === id)) {
    for (const sub of r
      .subscription()
      .list(scope)
      .filter((x) => x.customer === customer.id && x.status !== 'canceled')) {
      p.cancelNow(scope, sub.id, origin)
    }
    r.customer().delete(scope, customer.id, origin)
  }
}
