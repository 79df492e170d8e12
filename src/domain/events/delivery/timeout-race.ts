import type { Scheduler } from '#kernel/scheduler.js'
import { TURN } from '#kernel/turn.js'
import type { DeliveryTransport, TransportRequest, TransportResult } from './delivery-transport.js'

/**
 * One POST through the transport; a transport that throws is a connection failure.
 *
 * @example
 * post(transport, request) // { kind: 'response', status: 200, body: '' } or a promise of one
 */
export function post(transport: DeliveryTransport, request: TransportRequest): TransportResult | Promise<TransportResult> {
  try {
    return transport.post(request)
  } catch (error) {
    return { kind: 'connect_error', message: (error as Error).message }
  }
}

/**
 * Races a pending answer against the time-out on the virtual clock; `finish` runs as soon as one
 * wins (before the clock can move on), so durations are exact.
 *
 * @example
 * race(scheduler, answer, clock.now, 10_000, () => controller.abort(), (result) => record(result))
 */
export function race<T>(
  scheduler: Scheduler,
  answer: Promise<TransportResult>,
  at: number,
  timeoutMs: number,
  abort: () => void,
  finish: (result: TransportResult) => T,
): Promise<T> {
  return (async () => {
    let done = false
    const settled = answer.then(
      (x) => {
        done = true
        return x
      },
      (error: unknown): TransportResult => {
        done = true
        return { kind: 'connect_error', message: (error as Error).message }
      },
    )
    // Receivers that answer without spending virtual time need no time-out task.
    for (let i = 0; i < 16 && !done; i++) await TURN
    if (done) return finish(await settled)
    let expire!: (x: TransportResult) => void
    const expired = new Promise<TransportResult>((resolve) => {
      expire = resolve
    })
    const timer = scheduler.at(at + timeoutMs, 'delivery.timeout', () => {
      abort()
      expire({ kind: 'timeout', message: `No answer within ${timeoutMs} ms.` })
    })
    const result = await Promise.race([settled, expired])
    scheduler.cancel(timer)
    return finish(result)
  })()
}
