import { DAY } from '#kernel/time.js'
import type { Engine } from '../engine/engine.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'

/** How long a card authorisation is held before the provider releases it (an uncaptured intent). */
const AUTHORIZATION_HOLD_MS = 7 * DAY

/** Work that money movements leave on the clock: a payout's arrival (an authorisation's expiry runs by itself). */
export interface MoneyTimers {
  /** At `arrivalDate` (unix seconds) a still pending payout is `paid` (`payout.paid`). */
  payoutArrives(scope: Scope, id: string, arrivalDate: number): void
}

type Args = { account: string; mode: Scope['mode']; id: string }

/**
 * Builds the timers on the kernel's due-time queue (tasks are data, so snapshots carry them). A
 * payout canceled, or an intent captured or canceled, before its time is left alone. Every
 * authorisation held for a later capture (`payment_intent.amount_capturable_updated`, however the
 * intent got there) is released seven days on: the intent is canceled with
 * `cancellation_reason: 'automatic'`.
 *
 * @example
 * const timers = createMoneyTimers(kernel, events, () => engine)
 * timers.payoutArrives(scope, 'po_1', payout.arrival_date)
 */
export function createMoneyTimers(kernel: Kernel, events: EventStore, engine: () => Engine): MoneyTimers {
  const arrival = kernel.scheduler.define<Args>('payout.arrive', ({ account, mode, id }) => {
    const scope = { account, mode }
    const payouts = engine().resource('payout')
    if (payouts.get(scope, id)?.status !== 'pending') return
    const paid = payouts.set(scope, id, { status: 'paid' }, NO_ORIGIN)
    engine().emit('payout.paid', scope, paid, NO_ORIGIN)
  })
  const expiry = kernel.scheduler.define<Args>('payment_intent.authorization_expire', ({ account, mode, id }) => {
    const scope = { account, mode }
    if (engine().resource('payment_intent').get(scope, id)?.status !== 'requires_capture') return
    engine().run('paymentIntents.cancel', {
      scope,
      origin: NO_ORIGIN,
      path: { id },
      params: { cancellation_reason: 'automatic' },
    })
  })
  const args = (scope: Scope, id: string): Args => ({ account: scope.account, mode: scope.mode, id })
  events.subscribe((event) => {
    if (event.type !== 'payment_intent.amount_capturable_updated' || event.objectId === undefined) return
    const held = (event.body.data as { object?: { status?: unknown } } | undefined)?.object?.status
    // An increment of the authorisation emits it again; its later timer finds the intent already released.
    if (held !== 'requires_capture') return
    expiry.at(event.at + AUTHORIZATION_HOLD_MS, { account: event.account, mode: event.mode, id: event.objectId })
  })
  return {
    payoutArrives(scope, id, arrivalDate) {
      arrival.at(arrivalDate * 1000, args(scope, id))
    },
  }
}
