import { DAY } from '#kernel/time.js'
import type { Scope } from '../../mode.js'
import { invalidRequest, resourceMissing, tableError } from '../../service-error.js'
import { routes } from '../destinations/routing.js'
import type { StoredEvent } from '../event.js'
import { traceAttempt } from './attempt-log.js'
import { DELIVERY_TIMEOUT_MS, RESEND_WINDOW_MS } from './constants.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryAttempt } from './delivery-record.js'
import { untilIdle } from './idle.js'
import { openRecord } from './new-record.js'
import type { Send } from './send.js'

/**
 * Manual resend: see {@link createResend}.
 *
 * @example
 * const resend: Resend = createResend(ctx, send)
 */
export type Resend = (eventId: string, destinationId: string, via: 'dashboard' | 'cli', scope?: Scope) => Promise<DeliveryAttempt>

/**
 * Manual resend (dashboard: 15 days, cli: 30 days). It never cancels automatic retries. Every
 * refusal throws at once (before anything is sent); the POST itself runs in the background.
 *
 * @example
 * const resend = createResend(ctx, send)
 * await resend('evt_1', 'ed_1', 'cli', scope)
 */
export function createResend(ctx: DeliveryContext, send: Send): Resend {
  const { clock, scheduler, trace } = ctx.kernel

  function visible(scope: Scope, event: StoredEvent): boolean {
    if (event.account === scope.account) return true
    return ctx.destinations
      .all()
      .some(
        (d) => d.account === scope.account && d.mode === scope.mode && routes({ ...d, status: 'enabled' }, event, ctx.accounts),
      )
  }

  function check(eventId: string, destinationId: string, via: 'dashboard' | 'cli', scope: Scope | undefined) {
    const event = ctx.index.lookup(eventId)
    const d = ctx.destinations.find(destinationId)
    if (event === undefined || (scope !== undefined && (event.mode !== scope.mode || !visible(scope, event)))) {
      throw resourceMissing('event', eventId)
    }
    if (d === undefined || (scope !== undefined && (d.account !== scope.account || d.mode !== scope.mode))) {
      throw resourceMissing('webhook endpoint', destinationId, 'webhook_endpoint')
    }
    if (d.mode !== event.mode) {
      throw invalidRequest(`Event '${eventId}' and endpoint '${destinationId}' are in different modes.`, {
        param: 'webhook_endpoint',
      })
    }
    const window = RESEND_WINDOW_MS[via]
    if (clock.now - event.at > window) {
      throw tableError(
        'event_too_old',
        { id: eventId, days: window / DAY, via: via === 'cli' ? 'command line' : 'dashboard' },
        { param: 'id' },
      )
    }
    return { event, d }
  }

  return (eventId, destinationId, via, scope) => {
    const { event, d } = check(eventId, destinationId, via, scope)
    const r = ctx.book.get(eventId, destinationId) ?? openRecord(ctx, event, d)
    const work = Promise.resolve(send(r, event, d, via, DELIVERY_TIMEOUT_MS)).then(({ attempt: a }) => {
      if (a.outcome === 'delivered') r.status = 'Delivered'
      else if (r.status === 'Pending' && r.nextAttemptAt === null && r.attempts.length === 1) r.status = 'Failed'
      traceAttempt(trace, r, a)
      return a
    })
    scheduler.track(ctx.transport.waitsOnClock(d.url) ? untilIdle(work) : work)
    return work
  }
}
