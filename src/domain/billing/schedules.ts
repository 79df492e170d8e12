import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type Ref, refOf, scopeOf, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { phaseAddParams } from './subscriptions/add-invoice-items.js'
import type { JobKind, Timeline } from './timelines.js'

/** A phase as the schedule stores it (unix seconds). */
interface StoredPhase {
  readonly start_date: number
  readonly end_date: number
  readonly items: readonly { readonly price: string; readonly quantity?: number }[]
  readonly proration_behavior?: string
}

/**
 * A phase changes the subscription just before its boundary: the period end there (on the same
 * instant) then bills the next period on the new phase's terms, as the provider does.
 */
const BEFORE_BOUNDARY_MS = 1

/**
 * Subscription schedules on the clock: a schedule that has not started creates its subscription at
 * its start; each phase's end moves the subscription to the next phase's items, or ends the
 * schedule by its `end_behavior` (`release` leaves the subscription running, `cancel` cancels it).
 * Jobs name the schedule only; a job whose moment no longer matches the schedule (updated,
 * released, canceled since) does nothing, so changes never need to find and cancel it.
 *
 * @example
 * const schedules = createSchedules(ctx, jobs.scheduleStep, testClocks.timelineOfCustomer)
 * schedules.adopt(scope, schedule) // drives its subscription from now on
 */
export type Schedules = ReturnType<typeof createSchedules>

/** What driving schedules works with: billing's shared records, the step job kind, and customers' timelines. */
interface ScheduleParts {
  readonly ctx: BillingContext
  readonly step: JobKind<Ref>
  readonly timelineOfCustomer: (scope: Scope, customer: Json) => Timeline
}

export function createSchedules(
  ctx: BillingContext,
  step: JobKind<Ref>,
  timelineOfCustomer: (scope: Scope, customer: Json) => Timeline,
) {
  const p: ScheduleParts = { ctx, step, timelineOfCustomer }
  return {
    start: (scope: Scope, schedule: Json, origin: Origin): Json => start(p, scope, schedule, origin),
    adopt: (scope: Scope, schedule: Json): void => adopt(p, scope, schedule),
    queue: (scope: Scope, schedule: Json): void => queue(p, scope, schedule),
    release: (scope: Scope, schedule: Json, origin: Origin): Json => release(p, scope, schedule, origin),
    cancel: (scope: Scope, schedule: Json, params: Readonly<Record<string, unknown>>, origin: Origin): Json =>
      cancel(p, scope, schedule, params, origin),
    phaseAt,
    timelineOf: (scope: Scope, schedule: Json): Timeline => timelineOf(p, scope, schedule),
    runStep: (a: Ref): void => runStep(p, a),
  }
}

const schedulesOf = (ctx: BillingContext) => ctx.engine.resource('subscription_schedule')
const phasesOf = (s: Json) => s.phases as StoredPhase[]

/** The timeline of the schedule's customer (its test clock's, or the simulator's). */
function timelineOf(p: ScheduleParts, scope: Scope, schedule: Json): Timeline {
  const customer = p.ctx.engine.resource('customer').require(scope, String(schedule.customer))
  return p.timelineOfCustomer(scope, customer)
}

/** When the schedule's next step is due (ms), or null when it has none. */
function nextStep(schedule: Json): number | null {
  if (schedule.status === 'not_started') return (phasesOf(schedule)[0]?.start_date ?? 0) * 1000
  if (schedule.status !== 'active') return null
  const current = schedule.current_phase as { end_date: number } | null
  return current === null ? null : current.end_date * 1000 - BEFORE_BOUNDARY_MS
}

/** The step job's work: it does nothing when its moment no longer matches the schedule. */
function runStep(p: ScheduleParts, a: Ref): void {
  const scope = scopeOf(a)
  const schedule = schedulesOf(p.ctx).get(scope, a.id)
  if (schedule === undefined) return
  const due = nextStep(schedule)
  if (due === null || timelineOf(p, scope, schedule).now() !== due) return
  if (schedule.status === 'not_started') start(p, scope, schedule, NO_ORIGIN)
  else advance(p, scope, schedule)
}

/** Queues the schedule's next step on its customer's timeline. */
function queue(p: ScheduleParts, scope: Scope, schedule: Json): void {
  const due = nextStep(schedule)
  if (due !== null) timelineOf(p, scope, schedule).at(due, p.step, refOf(scope, schedule.id))
}

/** The index of the phase in force at `t` (ms); the first when none is. */
function phaseAt(schedule: Json, t: number): number {
  const phases = phasesOf(schedule)
  const i = phases.findIndex((p) => p.start_date * 1000 <= t && t < p.end_date * 1000)
  return i < 0 ? 0 : i
}

const itemsParam = (phase: StoredPhase) =>
  phase.items.map((i) => ({ price: i.price, ...(i.quantity === undefined ? {} : { quantity: i.quantity }) }))
// A phase's prices are the schedule's to use, those it made inline (inactive) included.
const heldPrices = (phase: StoredPhase) => [
  ...phase.items.map((i) => i.price),
  ...phaseAddParams(phase as unknown as Json).map((a) => String(a.price)),
]
/** The phase's `add_invoice_items` as the param of the call that starts it (none: no param). */
const addParam = (phase: StoredPhase) => {
  const adds = phaseAddParams(phase as unknown as Json)
  return adds.length === 0 ? {} : { add_invoice_items: adds }
}

/** Starts a schedule: its subscription made from the first phase, `active`, the next step queued. */
function start(p: ScheduleParts, scope: Scope, schedule: Json, origin: Origin): Json {
  const { engine } = p.ctx
  const phase = phasesOf(schedule)[0] as StoredPhase
  const defaults = schedule.default_settings as { collection_method?: unknown; default_payment_method?: unknown } | null
  const sub = engine.run('subscriptions.create', {
    scope,
    origin,
    path: {},
    heldPrices: heldPrices(phase),
    params: {
      customer: schedule.customer,
      items: itemsParam(phase),
      ...addParam(phase),
      ...(typeof defaults?.default_payment_method === 'string'
        ? { default_payment_method: defaults.default_payment_method }
        : {}),
    },
  }) as Json
  engine.resource('subscription').put(scope, sub.id, { schedule: schedule.id })
  const started = schedulesOf(p.ctx).set(
    scope,
    schedule.id,
    { status: 'active', subscription: sub.id, current_phase: { start_date: phase.start_date, end_date: phase.end_date } },
    origin,
  )
  queue(p, scope, started)
  return started
}

/** Adopts a running subscription (`from_subscription`): `active` at once, its phase ending with its period. */
function adopt(p: ScheduleParts, scope: Scope, schedule: Json): void {
  p.ctx.engine.resource('subscription').put(scope, String(schedule.subscription), { schedule: schedule.id })
  queue(p, scope, schedule)
}

/** The end of the current phase: the next phase's items, or the end of the schedule. */
function advance(p: ScheduleParts, scope: Scope, schedule: Json): void {
  const { engine } = p.ctx
  const phases = phasesOf(schedule)
  const timeline = timelineOf(p, scope, schedule)
  const boundary = timeline.now() + BEFORE_BOUNDARY_MS
  const next = phases.findIndex((x) => x.start_date * 1000 === boundary)
  const subId = String(schedule.subscription)
  if (next < 0) {
    end(p, scope, schedule, NO_ORIGIN)
    return
  }
  const phase = phases[next] as StoredPhase
  const current = engine.resource('subscription').get(scope, subId)
  const items = (current?.items as { data: Json[] } | undefined)?.data ?? []
  engine.run('subscriptions.update', {
    scope,
    origin: NO_ORIGIN,
    path: { id: subId },
    heldPrices: heldPrices(phase),
    params: {
      items: [...items.map((i) => ({ id: i.id, deleted: true })), ...itemsParam(phase)],
      proration_behavior: 'none',
      ...addParam(phase),
    },
  })
  const moved = schedulesOf(p.ctx).set(
    scope,
    schedule.id,
    { current_phase: { start_date: phase.start_date, end_date: phase.end_date } },
    NO_ORIGIN,
  )
  queue(p, scope, moved)
}

/** The last phase is over: released (the subscription runs on) or canceled with its subscription. */
function end(p: ScheduleParts, scope: Scope, schedule: Json, origin: Origin): Json {
  const { engine } = p.ctx
  const subId = String(schedule.subscription)
  const now = sec(timelineOf(p, scope, schedule).now() + BEFORE_BOUNDARY_MS)
  if (schedule.end_behavior === 'cancel') {
    engine.run('subscriptions.cancel', { scope, origin, path: { id: subId }, params: {} })
    return close(p.ctx, scope, schedule, 'canceled', { canceled_at: now }, origin)
  }
  engine.resource('subscription').put(scope, subId, { schedule: null })
  return close(p.ctx, scope, schedule, 'released', { released_at: now, released_subscription: subId, subscription: null }, origin)
}

/** A final status, with its event (`subscription_schedule.released`, `.canceled`). */
function close(
  ctx: BillingContext,
  scope: Scope,
  schedule: Json,
  status: string,
  fields: Record<string, unknown>,
  origin: Origin,
): Json {
  const closed = schedulesOf(ctx).put(scope, schedule.id, { ...fields, status, current_phase: null })
  emitSnapshot(ctx.events, `subscription_schedule.${status}`, scope, closed, origin, { status: schedule.status })
  return closed
}

/** `subscriptionSchedules.release`: the subscription runs on without the schedule. */
function release(p: ScheduleParts, scope: Scope, schedule: Json, origin: Origin): Json {
  const subId = typeof schedule.subscription === 'string' ? schedule.subscription : null
  if (subId !== null) p.ctx.engine.resource('subscription').put(scope, subId, { schedule: null })
  const now = sec(timelineOf(p, scope, schedule).now())
  return close(p.ctx, scope, schedule, 'released', { released_at: now, released_subscription: subId, subscription: null }, origin)
}

/** `subscriptionSchedules.cancel`: the schedule and its subscription end now. */
function cancel(p: ScheduleParts, scope: Scope, schedule: Json, params: Readonly<Record<string, unknown>>, origin: Origin): Json {
  const subId = typeof schedule.subscription === 'string' ? schedule.subscription : null
  if (subId !== null) {
    p.ctx.engine.run('subscriptions.cancel', {
      scope,
      origin,
      path: { id: subId },
      params: {
        ...(params.invoice_now === undefined ? {} : { invoice_now: params.invoice_now }),
        ...(params.prorate === undefined ? {} : { prorate: params.prorate }),
      },
    })
  }
  const now = sec(timelineOf(p, scope, schedule).now())
  return close(p.ctx, scope, schedule, 'canceled', { canceled_at: now }, origin)
}
