import type { Behaviour } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { pauseBillingOf } from '../pause-billing.js'

/** Statuses a subscription can be paused from: it bills (or will, once its trial ends). */
const PAUSABLE = new Set(['active', 'trialing', 'past_due'])

const refuse = (action: string, sub: Json, reason: string) =>
  tableError('subscription_unexpected_state', { action, id: sub.id, reason })

/**
 * `subscriptions.pause`: a subscription that bills becomes `paused`
 * (`customer.subscription.paused`, `status_details.paused`): no invoices, no new periods. The
 * pause itself is billed first as `bill_for` and `invoicing_behavior` say (usage so far, a credit
 * for unused time, as pending items or an invoice now). One driven by a schedule, or already paused
 * or ended, is refused and nothing changes.
 *
 * @example
 * await stripe.subscriptions.pause(sub.id) // status 'paused'
 */
export const pauseSubscription: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const sub = engine.resource('subscription').require(call.scope, call.path.id ?? '')
  if (!PAUSABLE.has(String(sub.status))) {
    throw refuse(
      'pause',
      sub,
      `its status is ${String(sub.status)}; only active, trialing or past_due subscriptions can be paused`,
    )
  }
  if (typeof sub.schedule === 'string') throw refuse('pause', sub, `it is attached to schedule ${sub.schedule}`)
  return ports.billing.pausing.pause(call.scope, sub.id, call.origin, pauseBillingOf(call.params))
}

/**
 * `subscriptions.resume`: a `paused` subscription that charges automatically is `active` again
 * (`customer.subscription.resumed`). With `billing_cycle_anchor: { type: 'now' }` (the default) a
 * new period starts now and its invoice is made and paid as at any period end; with `unchanged`
 * the cycle goes on from its old anchor, the periods passed while paused not billed.
 *
 * @example
 * await stripe.subscriptions.resume(sub.id, { billing_cycle_anchor: { type: 'unchanged' } })
 */
export const resumeSubscription: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const sub = engine.resource('subscription').require(call.scope, call.path.id ?? '')
  if (sub.status !== 'paused') throw refuse('resume', sub, `its status is ${String(sub.status)}, not paused`)
  if (sub.collection_method !== 'charge_automatically') {
    throw refuse('resume', sub, 'only subscriptions that charge automatically can be resumed')
  }
  const anchor = (call.params.billing_cycle_anchor as { type?: unknown } | undefined)?.type
  return ports.billing.pausing.resume(call.scope, sub.id, anchor === 'unchanged' ? 'unchanged' : 'now', call.origin)
}

/**
 * `subscriptions.migrate`: moves a subscription to the `flexible` billing mode (the only one a
 * subscription can move to), with `updated_at` now; one already flexible is refused.
 *
 * @example
 * await stripe.subscriptions.migrate(sub.id, { billing_mode: { type: 'flexible' } })
 */
export const migrateSubscription: Behaviour<ResourcePorts> = (call, _next, { engine }) => {
  const r = engine.resource('subscription')
  const sub = r.require(call.scope, call.path.id ?? '')
  const mode = call.params.billing_mode as { flexible?: { proration_discounts?: unknown } } | undefined
  if ((sub.billing_mode as { type?: unknown } | undefined)?.type === 'flexible') {
    throw refuse('migrate', sub, 'it already uses the flexible billing mode')
  }
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    throw refuse('migrate', sub, `its status is ${String(sub.status)}`)
  }
  const discounts = mode?.flexible?.proration_discounts === 'itemized' ? 'itemized' : 'included'
  return r.set(
    call.scope,
    sub.id,
    { billing_mode: { flexible: { proration_discounts: discounts }, type: 'flexible', updated_at: engine.now() } },
    call.origin,
  )
}
