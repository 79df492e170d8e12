import { outcomeOf } from './attempt-log.js'
import { DELIVERY_TIMEOUT_MS, REPLAY_MIN_AGE_MS } from './constants.js'
import type { CapturedRequest, DeliveryContext } from './delivery-context.js'
import type { TransportResult } from './delivery-transport.js'
import { untilIdle } from './idle.js'
import { replayedRequest } from './signed-request.js'
import { post, race } from './timeout-race.js'

/**
 * A captured request as data (record ids instead of the record), as a snapshot and a replay task carry it.
 *
 * @example
 * replayTask.at(due, saveCapture(ctx.captured))
 */
export interface SavedCapture {
  readonly event: string
  readonly destination: string
  readonly url: string
  readonly body: string
  readonly headers: Record<string, string>
  readonly at: number
}

/**
 * The captured request as data.
 *
 * @example
 * saveCapture(ctx.captured) // { event, destination, url, body, headers, at }
 */
export function saveCapture(c: CapturedRequest): SavedCapture {
  return { event: c.r.eventId, destination: c.r.destinationId, url: c.url, body: c.body, headers: c.headers, at: c.at }
}

/**
 * An attacker's replay: the oldest signed delivery sent so far (whose headers the receiver read)
 * is POSTed again, body and signature header unchanged, once it is `minAgeMs` old (default
 * `REPLAY_MIN_AGE_MS`). Traced as `delivery.replay`; no delivery record changes. False when
 * nothing signed was sent yet.
 *
 * @example
 * const replay = createReplay(ctx)
 * replay({ minAgeMs: 10 * 60_000 })
 */
export function createReplay(ctx: DeliveryContext): (options?: { minAgeMs?: number }) => boolean {
  const { clock, scheduler, trace } = ctx.kernel

  function replayOf(old: SavedCapture): void | Promise<void> {
    const at = clock.now
    const { request, abort } = replayedRequest(old.url, old.body, old.headers, DELIVERY_TIMEOUT_MS)
    const done = (result: TransportResult): void => {
      trace.append('delivery.replay', {
        event: old.event,
        destination: old.destination,
        age: at - old.at,
        outcome: outcomeOf(result),
        status: result.kind === 'response' ? result.status : null,
      })
    }
    const answer = post(ctx.transport, request)
    if (!(answer instanceof Promise)) return done(answer)
    const work = race(scheduler, answer, at, DELIVERY_TIMEOUT_MS, abort, done)
    return ctx.transport.waitsOnClock(old.url) ? untilIdle(work) : work
  }

  const replayTask = scheduler.define<SavedCapture>('delivery.replay', replayOf)
  return (options = {}) => {
    const old = ctx.captured
    if (old === undefined) return false
    const minAgeMs = options.minAgeMs ?? REPLAY_MIN_AGE_MS
    replayTask.at(Math.max(clock.now, old.at + minAgeMs), saveCapture(old))
    return true
  }
}
