import type { DeliveryFaultHookDecision } from '../../fault-hooks.js'
import type { Destination } from '../destinations/destination.js'
import type { StoredEvent } from '../event.js'
import { recordAttempt, type Sent } from './attempt-log.js'
import type { DeliveryContext } from './delivery-context.js'
import type { AttemptTrigger, DeliveryRecord } from './delivery-record.js'
import type { TransportRequest, TransportResult } from './delivery-transport.js'
import { untilIdle } from './idle.js'
import { deliveryBody } from './payload.js'
import { signedRequest } from './signed-request.js'
import { post, race } from './timeout-race.js'

/**
 * Sends one attempt of a delivery; see {@link createSend}.
 *
 * @example
 * const send: Send = createSend(ctx)
 */
export type Send = (
  r: DeliveryRecord,
  event: StoredEvent,
  d: Destination,
  trigger: AttemptTrigger,
  timeoutMs: number,
  fault?: DeliveryFaultHookDecision,
) => Sent | Promise<Sent>

/**
 * POSTs once and records the attempt. Synchronous when the transport answers at once (an
 * in-process receiver that returns a Response without spending virtual time), so long retry runs
 * allocate no promise per attempt; otherwise a promise, raced against the time-out. An injected
 * failure never reaches the transport; an injected slow network hands the request over later.
 *
 * @example
 * const send = createSend(ctx)
 * send(record, event, destination, 'automatic', DELIVERY_TIMEOUT_MS)
 */
export function createSend(ctx: DeliveryContext): Send {
  const { clock, scheduler } = ctx.kernel
  return (r, event, d, trigger, timeoutMs, fault) => {
    if (fault?.fail === true) {
      return recordAttempt(r, trigger, clock.now, clock.now, {
        kind: 'connect_error',
        message: 'Unable to connect: the receiver is unreachable (injected fault).',
      })
    }
    const payload = deliveryBody(event, trigger === 'ping' ? 'thin' : d.eventPayload, d.snapshotApiVersion, ctx.events.bodyAt)
    const at = clock.now
    const signed = signedRequest(ctx.names, {
      url: d.url,
      body: payload,
      timeoutMs,
      badCertificate: d.badCertificate,
      at,
      test: d.mode === 'test',
      secrets: () => ctx.destinations.activeSecrets(d),
    })
    const slowMs = fault?.slowMs ?? 0
    const answer = slowMs > 0 ? slowPost(ctx, signed.request, at + slowMs) : post(ctx.transport, signed.request)
    const headers = signed.headersRead()
    if (ctx.captured === undefined && headers !== undefined) ctx.captured = { r, url: d.url, body: payload, headers, at }
    if (!(answer instanceof Promise)) return recordAttempt(r, trigger, at, clock.now, answer)
    const finish = (result: TransportResult) => recordAttempt(r, trigger, at, clock.now, result)
    // A receiver outside the process answers in real time: its time-out is on the wall clock (the
    // transport's), so a clock jump while it answers never turns a real answer into a time-out.
    if (slowMs === 0 && !ctx.transport.waitsOnClock(d.url)) return answer.then(finish, (error: unknown) => finish(failed(error)))
    return race(scheduler, answer, at, timeoutMs, signed.abort, finish)
  }
}

function failed(error: unknown): TransportResult {
  return { kind: 'connect_error', message: (error as Error)?.message ?? String(error) }
}

/** A slow network: the receiver gets the request at `due`; the time-out still counts from the attempt. */
function slowPost(ctx: DeliveryContext, request: TransportRequest, due: number): Promise<TransportResult> {
  return new Promise<TransportResult>((resolve) => {
    ctx.kernel.scheduler.at(due, 'delivery.slow', () => {
      const late = post(ctx.transport, request)
      resolve(late)
      // Tracked, so settle() and advance() let the receiver answer before the clock moves on.
      if (late instanceof Promise) return ctx.transport.waitsOnClock(request.url) ? untilIdle(late) : late
    })
  })
}
