import type { DeliveryFaultHookDecision } from '../../fault-hooks.js'
import type { StoredEvent } from '../event.js'
import { andThen, traceAttempt } from './attempt-log.js'
import type { AttemptSchedule, ScheduledTrigger } from './attempt-schedule.js'
import { DELIVERY_TIMEOUT_MS } from './constants.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryAttempt, DeliveryRecord } from './delivery-record.js'
import { nextRetryAt } from './retry-policy.js'
import type { Send } from './send.js'

/**
 * Asks the fault hooks about automatic attempt `n` of a delivery (nothing when none are given).
 *
 * @example
 * decide(ctx, record, 1) // { delayMs: 500 } or undefined
 */
export function decide(ctx: DeliveryContext, r: DeliveryRecord, n: number): DeliveryFaultHookDecision | undefined {
  return ctx.faultHooks.deliveryFault?.({ event: r.eventId, destination: r.destinationId, type: r.eventType, attempt: n })
}

/**
 * Runs scheduled attempts: a destination disabled or deleted when its attempt falls due cancels
 * the automatic schedule; a failed automatic attempt schedules the next retry on the retry policy
 * (with the fault hooks' delay and duplicate), or ends the delivery as `Failed`.
 *
 * @example
 * const run = createAttempts(ctx, send, () => schedule)
 * run(record, event, 'automatic', undefined)
 */
export function createAttempts(ctx: DeliveryContext, send: Send, schedule: () => AttemptSchedule) {
  const { clock, trace } = ctx.kernel
  const own = {
    stopAutomatic(r: DeliveryRecord, reason: string): void {
      r.nextAttemptAt = null
      r.cancelled = reason
      if (r.status === 'Pending') r.status = 'Failed'
      trace.append('delivery.cancelled', { event: r.eventId, destination: r.destinationId, reason })
    },
    afterFailure(r: DeliveryRecord, a: DeliveryAttempt, startedAt: number): void {
      const due = nextRetryAt(r.mode, r.retries, r.firstAttemptAt ?? startedAt, startedAt, ctx.retryRng)
      if (due === undefined) {
        r.nextAttemptAt = null
        if (r.status !== 'Delivered') r.status = 'Failed'
        schedule().settleHorizon(r)
        traceAttempt(trace, r, a)
        trace.append('delivery.exhausted', { event: r.eventId, destination: r.destinationId, attempts: r.attempts.length })
        return
      }
      const next = decide(ctx, r, r.retries + 2)
      const at = due + (next?.delayMs ?? 0)
      r.retries++
      schedule().attempt(r, at, 'retry', next)
      if (next?.duplicate === true) schedule().attempt(r, at, 'duplicate')
      traceAttempt(trace, r, a)
    },
  }

  return function attempt(
    r: DeliveryRecord,
    event: StoredEvent,
    trigger: ScheduledTrigger,
    fault?: DeliveryFaultHookDecision,
  ): void | Promise<void> {
    const d = ctx.destinations.find(r.destinationId)
    const automatic = trigger === 'automatic' || trigger === 'retry'
    if (d === undefined || (d.status !== 'enabled' && trigger !== 'ping')) {
      if (automatic) {
        own.stopAutomatic(r, d === undefined ? 'destination_deleted' : 'destination_disabled')
        schedule().settleHorizon(r)
      }
      return
    }
    if (automatic) {
      r.nextAttemptAt = null
      r.firstAttemptAt ??= clock.now
    }
    const startedAt = clock.now
    return andThen(send(r, event, d, trigger, DELIVERY_TIMEOUT_MS, fault), ({ attempt: a }) => {
      if (a.outcome === 'delivered') {
        r.status = 'Delivered'
        if (automatic) {
          r.nextAttemptAt = null
          schedule().settleHorizon(r)
        }
        traceAttempt(trace, r, a)
        return
      }
      if (!automatic) traceAttempt(trace, r, a)
      else own.afterFailure(r, a, startedAt)
    })
  }
}
