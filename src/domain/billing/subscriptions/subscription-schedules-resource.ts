import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../../engine/apply-params.js'
import type { OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest, tableError } from '../../service-error.js'
import { boundary, type Interval } from '../calendar.js'
import { type PlannedPrice, plannedPrice } from '../catalog/inline-prices.js'
import { checkAddInvoiceItems, type PlannedInvoiceItem, phaseAddParams, phaseInvoiceItems } from './add-invoice-items.js'
import { checkOneCycle } from './subscription-params.js'

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })
const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

const listOf = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : isPlainObject(v) ? Object.values(v) : undefined)

/** A phase as stored: the provider's full shape, times in unix seconds. */
function phaseJson(
  start: number,
  end: number,
  items: readonly { price: Json; quantity?: number }[],
  currency: string,
  proration: unknown,
  addInvoiceItems: readonly Record<string, unknown>[] = [],
): Json {
  return {
    add_invoice_items: addInvoiceItems,
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: end,
    invoice_settings: null,
    items: items.map((i) => ({
      billing_thresholds: null,
      discounts: [],
      metadata: {},
      plan: i.price.id,
      price: i.price.id,
      ...(i.quantity === undefined ? {} : { quantity: i.quantity }),
      tax_rates: [],
    })),
    metadata: {},
    on_behalf_of: null,
    proration_behavior: typeof proration === 'string' ? proration : 'create_prorations',
    start_date: start,
    transfer_data: null,
    trial_end: null,
  } as unknown as Json
}

/** A phase item's price, named or still a draft of its `price_data`, and its quantity. */
interface PlannedItem {
  readonly planned: PlannedPrice
  readonly inline: boolean
  readonly quantity?: number
}

/** A checked phase: its times and items, its inline prices not made yet. */
interface PhasePlan {
  readonly start: number
  readonly end: number
  readonly items: readonly PlannedItem[]
  readonly proration: unknown
  /** `add_invoice_items`, checked: what the phase's first invoice bills besides its items. */
  readonly addItems: readonly PlannedInvoiceItem[]
}

/**
 * Phases from `phases[]`, one after another from `start` (unix seconds): each ends at its
 * `end_date`, after its `duration`, or after one interval of its first price. Every price must be
 * a recurring price of the account, named (`price`) or described (`price_data`); nothing is made
 * here ({@link makePhases} makes the inline prices).
 */
function planPhases(engine: Engine, call: OperationCall, raw: unknown, start: number): PhasePlan[] {
  const entries = listOf(raw)
  if (entries === undefined || entries.length === 0) throw missing('phases')
  let at = start
  return entries.map((p, i) => {
    const param = `phases[${i}]`
    if (!isPlainObject(p)) throw invalid(param, 'must be an object')
    const items = listOf(p.items)
    if (items === undefined || items.length === 0) throw missing(`${param}[items]`)
    const priced = items.map((it, j): PlannedItem & { price: Json } => {
      const itemParam = `${param}[items][${j}]`
      const planned = isPlainObject(it) ? plannedPrice(engine, call, it, itemParam, `price_draft_${i}_${j}`) : undefined
      if (planned === undefined || !isPlainObject(it)) throw missing(`${itemParam}[price]`)
      const price = planned.price
      const inline = typeof it.price !== 'string' || it.price === ''
      if (price.recurring === null || price.recurring === undefined) {
        if (inline) throw missing(`${itemParam}[price_data][recurring]`)
        throw invalid(`${itemParam}[price]`, 'the price must be a recurring price')
      }
      return { planned, inline, price, ...(it.quantity === undefined ? {} : { quantity: Number(it.quantity) }) }
    })
    // A phase becomes the subscription's items: refused here, before any inline price is made.
    checkOneCycle(
      priced.map((it) => it.price),
      `${param}[items]`,
    )
    const first = priced[0]?.price.recurring as { interval: Interval; interval_count?: number }
    let end: number
    if (p.end_date !== undefined) end = Number(p.end_date)
    else if (isPlainObject(p.duration)) {
      const count = Number(p.duration.interval_count ?? 1)
      end = boundary(at * 1000, p.duration.interval as Interval, count, 1) / 1000
    } else end = boundary(at * 1000, first.interval, Number(first.interval_count ?? 1), 1) / 1000
    if (!(end > at)) throw invalid(`${param}[end_date]`, 'must be after the start of the phase')
    const addParam = `${param}[add_invoice_items]`
    const addItems = checkAddInvoiceItems(engine, call, p.add_invoice_items, addParam, String(priced[0]?.price.currency))
    const plan = { start: at, end, items: priced, proration: p.proration_behavior, addItems }
    at = end
    return plan
  })
}

/**
 * The phases as stored, every check having passed: each inline price made now, except those of the
 * first phase when `firstPrices` gives them (made by the subscription the schedule starts).
 */
function makePhases(
  plans: readonly PhasePlan[],
  firstPrices?: readonly Json[],
  firstAdds?: readonly Record<string, unknown>[],
): Json[] {
  return plans.map((plan, i) => {
    const prices = i === 0 && firstPrices !== undefined ? firstPrices : plan.items.map((it) => it.planned.make())
    const items = plan.items.map((it, j) => ({
      price: prices[j] as Json,
      ...(it.quantity === undefined ? {} : { quantity: it.quantity }),
    }))
    const adds = i === 0 && firstAdds !== undefined ? firstAdds : phaseInvoiceItems(plan.addItems)
    return phaseJson(plan.start, plan.end, items, String(items[0]?.price.currency), plan.proration, adds)
  })
}

/** A planned phase's items as `subscriptions.create` params: inline ones by their `price_data`. */
const entriesOf = (plan: PhasePlan, raw: unknown): Record<string, unknown>[] =>
  plan.items.map((it, j) => {
    const entry = (listOf((listOf(raw)?.[0] as Json | undefined)?.items) ?? [])[j] as Json | undefined
    return {
      ...(it.inline ? { price_data: entry?.price_data } : { price: it.planned.price.id }),
      ...(it.quantity === undefined ? {} : { quantity: it.quantity }),
    }
  })

function scheduleOf(engine: Engine, call: OperationCall, action: string): Json {
  const schedule = engine.resource('subscription_schedule').require(call.scope, call.path.id ?? '')
  if (schedule.status !== 'not_started' && schedule.status !== 'active') {
    throw invalidRequest(errorMessage('subscription_schedule_unexpected_state', { action, status: String(schedule.status) }), {
      code: 'subscription_schedule_unexpected_state',
    })
  }
  return schedule
}

const nowOf = (ports: ResourcePorts, call: OperationCall, customer: Json) =>
  Math.floor(ports.billing.timelineOfCustomer(call.scope, customer).now() / 1000)

/** Phases' items as subscription item params. */
const itemsOf = (phase: Json) =>
  (phase.items as { price: string; quantity?: number }[]).map((i) => ({
    price: i.price,
    ...(i.quantity === undefined ? {} : { quantity: i.quantity }),
  }))

/**
 * `from_subscription`: a schedule of one phase, the running subscription's current period and
 * items, `active` at once (no other way to name its customer, phases or start).
 */
function fromSubscription(engine: Engine, ports: ResourcePorts, call: OperationCall, from: string): Json {
  const { end_behavior: endBehavior, metadata } = call.params
  for (const param of ['customer', 'phases', 'start_date'] as const) {
    if (call.params[param] !== undefined) {
      throw tableError('parameters_exclusive', { params: `from_subscription, ${param}` }, { param })
    }
  }
  const sub = engine.resource('subscription').requireParam(call.scope, from, 'from_subscription')
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    throw invalid('from_subscription', `the subscription is ${String(sub.status)}`)
  }
  if (typeof sub.schedule === 'string')
    throw invalid('from_subscription', `the subscription is already managed by ${sub.schedule}`)
  const items = (sub.items as { data: Json[] }).data
  const period = items[0] as { current_period_start: number; current_period_end: number } | undefined
  const phase = phaseJson(
    period?.current_period_start ?? engine.now(),
    period?.current_period_end ?? engine.now(),
    items.map((i) => ({ price: i.price as Json, ...(typeof i.quantity === 'number' ? { quantity: i.quantity } : {}) })),
    String(sub.currency),
    undefined,
  )
  const created = engine.resource('subscription_schedule').create(call.scope, { metadata }, call.origin, {
    customer: sub.customer,
    end_behavior: typeof endBehavior === 'string' ? endBehavior : 'release',
    phases: [phase],
    status: 'active',
    subscription: sub.id,
    test_clock: sub.test_clock ?? null,
    current_phase: { start_date: phase.start_date, end_date: phase.end_date },
  })
  ports.billing.schedules.adopt(call.scope, created)
  return created
}

/**
 * Subscription schedules: phases of a subscription over time, on the customer's timeline (its
 * test clock included). Created from a running subscription (`from_subscription`) or from a
 * customer and phases (started now, making its subscription, or later); each phase end moves the
 * subscription on (src/domain/billing/schedules.ts); `release` lets the subscription run on alone,
 * `cancel` ends both.
 *
 * @example
 * await stripe.subscriptionSchedules.create({ customer: 'cus_…', start_date: 'now', phases: [{ items: [{ price: 'price_…' }], duration: { interval: 'month', interval_count: 2 } }] })
 */
export const subscriptionSchedules: ResourceDeclaration<ResourcePorts> = {
  type: 'SubscriptionSchedule',
  object: 'subscription_schedule',
  idPrefix: 'sub_sched',
  defaults: () => ({ end_behavior: 'release', status: 'not_started' }),
  behaviours: {
    'subscriptionSchedules.create'(call, _next, { engine, ports }) {
      const {
        from_subscription: from,
        customer: customerId,
        phases,
        start_date: startDate,
        end_behavior: endBehavior,
        metadata,
      } = call.params
      const resource = engine.resource('subscription_schedule')
      const fields: Record<string, unknown> = {}
      if (typeof from === 'string') return fromSubscription(engine, ports, call, from)
      if (typeof customerId !== 'string') throw missing('customer')
      const customer = engine.resource('customer').requireParam(call.scope, customerId, 'customer')
      const now = nowOf(ports, call, customer)
      if (startDate !== undefined && startDate !== 'now' && !(Number(startDate) >= now)) {
        throw invalid('start_date', "must be 'now' or a time in the future")
      }
      const start = startDate === undefined || startDate === 'now' ? now : Number(startDate)
      const plans = planPhases(engine, call, phases, start)
      Object.assign(fields, {
        customer: customer.id,
        end_behavior: typeof endBehavior === 'string' ? endBehavior : 'release',
        test_clock: customer.test_clock ?? null,
      })
      if (start > now) {
        fields.phases = makePhases(plans)
        const created = resource.create(call.scope, { metadata }, call.origin, { ...fields, status: 'not_started' })
        ports.billing.schedules.queue(call.scope, created)
        return created
      }
      // Starting now: the subscription first (its own checks and events; it makes the first phase's
      // inline prices once they pass), then the other phases' prices and the schedule driving it.
      const firstAdds = phaseInvoiceItems((plans[0] as PhasePlan).addItems)
      const addParams = phaseAddParams({ add_invoice_items: firstAdds })
      const sub = engine.run('subscriptions.create', {
        ...call,
        path: {},
        heldPrices: addParams.map((a) => String(a.price)),
        params: {
          customer: customer.id,
          items: entriesOf(plans[0] as PhasePlan, phases),
          ...(addParams.length === 0 ? {} : { add_invoice_items: addParams }),
        },
      }) as Json
      const made = (sub.items as { data: Json[] }).data.map((item) => item.price as Json)
      fields.phases = makePhases(plans, made, firstAdds)
      const first = (fields.phases as Json[])[0] as Json
      const created = resource.create(call.scope, { metadata }, call.origin, {
        ...fields,
        status: 'active',
        subscription: sub.id,
        current_phase: { start_date: first.start_date, end_date: first.end_date },
      })
      ports.billing.schedules.adopt(call.scope, created)
      return created
    },
    'subscriptionSchedules.update'(call, _next, { engine, ports }) {
      const schedule = scheduleOf(engine, call, 'update')
      const { phases, end_behavior: endBehavior, metadata, proration_behavior: proration } = call.params
      const fields: Record<string, unknown> = {}
      if (typeof endBehavior === 'string') fields.end_behavior = endBehavior
      let changed: Json | undefined
      if (phases !== undefined) {
        const current = (schedule.phases as Json[])[0] as Json
        const given = listOf(phases)?.[0]
        const start =
          schedule.status === 'active'
            ? Number((schedule.current_phase as { start_date: number }).start_date)
            : isPlainObject(given) && given.start_date !== undefined
              ? Number(given.start_date)
              : Number(current.start_date)
        if (
          schedule.status === 'active' &&
          isPlainObject(given) &&
          given.start_date !== undefined &&
          Number(given.start_date) !== start
        ) {
          throw invalid('phases[0][start_date]', "the current phase's start cannot change")
        }
        // Every check has passed: the inline prices are made now (the subscription may use them).
        const planned = makePhases(planPhases(engine, call, phases, start))
        fields.phases = planned
        changed = planned[0]
        if (schedule.status === 'active') fields.current_phase = { start_date: changed?.start_date, end_date: changed?.end_date }
      }
      // The current phase's items apply to the subscription at once.
      if (changed !== undefined && schedule.status === 'active' && typeof schedule.subscription === 'string') {
        const sub = engine.resource('subscription').require(call.scope, schedule.subscription)
        const had = (sub.items as { data: Json[] }).data
        const wanted = itemsOf(changed)
        const same =
          had.length === wanted.length &&
          had.every((h, i) => (h.price as Json).id === wanted[i]?.price && (wanted[i]?.quantity ?? 1) === (h.quantity ?? 1))
        if (!same) {
          engine.run('subscriptions.update', {
            ...call,
            path: { id: sub.id },
            heldPrices: wanted.map((w) => w.price),
            params: {
              items: [...had.map((h) => ({ id: h.id, deleted: true })), ...wanted],
              ...(typeof proration === 'string' ? { proration_behavior: proration } : {}),
            },
          })
        }
      }
      const updated = engine
        .resource('subscription_schedule')
        .update(call.scope, schedule.id, metadata === undefined ? {} : { metadata }, call.origin, fields)
      if (fields.phases !== undefined) ports.billing.schedules.queue(call.scope, updated)
      return updated
    },
    'subscriptionSchedules.release'(call, _next, { engine, ports }) {
      const schedule = scheduleOf(engine, call, 'release')
      return ports.billing.schedules.release(call.scope, schedule, call.origin)
    },
    'subscriptionSchedules.cancel'(call, _next, { engine, ports }) {
      const schedule = scheduleOf(engine, call, 'cancel')
      return ports.billing.schedules.cancel(call.scope, schedule, call.params, call.origin)
    },
  },
}
