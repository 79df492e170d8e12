import type { DeliveryTransport, TransportRequest, TransportResult } from '#domain/index.js'
import { createTransport } from '#http/index.js'
import type { Simulator } from '#simulator/index.js'

/**
 * The receiver faults of a served simulator. In a scenario the run's receivers are named ones the
 * runner holds; in `serve` the receivers are the developer's apps, so `receiver_down`,
 * `receiver_up` and `receiver_slow` act on delivery to a destination (`receiver`: its id or URL;
 * omitted: every destination): down answers with a connection failure (or `status`) until
 * `receiver_up` or until `delay` has passed; slow holds the next `count` (default 1) deliveries
 * for `delay` (default 2 s) of virtual time before they are sent. `replay_delivery` needs a
 * captured delivery, which serve does not keep: it is recorded as not applied.
 *
 * @example
 * installServeReceiverFaults(sim)
 * sim.faults.inject({ fault: 'receiver_down', receiver: 'ed_123', delay: 3_600_000 })
 */
export function installServeReceiverFaults(sim: Simulator, base: DeliveryTransport = createTransport(sim.receivers)): void {
  const { clock, scheduler } = sim.service.kernel
  const down = new Map<string, { until: number; status: number | undefined }>()
  const slow = new Map<string, { delay: number; remaining: number }>()
  const ALL = '*'
  const urlOf = (receiver: string | undefined): string | undefined => {
    if (receiver === undefined || receiver === ALL) return ALL
    if (/^https?:\/\//.test(receiver)) return receiver
    return sim.admin.destinations().find((d) => d.id === receiver)?.url
  }
  const downFor = (url: string) => {
    for (const key of [url, ALL]) {
      const d = down.get(key)
      if (d === undefined) continue
      if (d.until > clock.now) return d
      down.delete(key)
    }
    return undefined
  }
  const slowFor = (url: string) => {
    for (const key of [url, ALL]) {
      const s = slow.get(key)
      if (s === undefined) continue
      if (--s.remaining <= 0) slow.delete(key)
      return s
    }
    return undefined
  }
  const send = (request: TransportRequest): TransportResult | Promise<TransportResult> => {
    const d = downFor(request.url)
    if (d === undefined) return base.post(request)
    return d.status === undefined
      ? { kind: 'connect_error', message: 'Unable to connect: the receiver is down (fault receiver_down).' }
      : { kind: 'response', status: d.status, body: '' }
  }
  sim.service.delivery.useTransport({
    post(request) {
      const s = slowFor(request.url)
      if (s === undefined) return send(request)
      return new Promise((answer) => {
        scheduler.after(s.delay, 'serve.receiver_slow', () => {
          const result = send(request)
          if (result instanceof Promise) return result.then(answer)
          answer(result)
        })
      })
    },
    // A held delivery waits on the virtual clock: `settle()` must not wait for it to finish.
    waitsOnClock: (url) => slow.has(url) || slow.has(ALL) || base.waitsOnClock(url),
  })
  sim.faults.on('receiver_down', (entry) => {
    const url = urlOf(entry.receiver)
    if (url === undefined) return false
    down.set(url, {
      until: entry.delay === undefined ? Number.POSITIVE_INFINITY : clock.now + entry.delay,
      status: entry.status,
    })
    return true
  })
  sim.faults.on('receiver_up', (entry) => {
    const url = urlOf(entry.receiver)
    if (url === undefined) return false
    if (url === ALL) down.clear()
    else down.delete(url)
    return true
  })
  sim.faults.on('receiver_slow', (entry) => {
    const url = urlOf(entry.receiver)
    if (url === undefined) return false
    slow.set(url, { delay: entry.delay ?? 2_000, remaining: entry.count ?? 1 })
    return true
  })
}
